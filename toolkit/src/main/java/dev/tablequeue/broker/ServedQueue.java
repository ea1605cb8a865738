package dev.tablequeue.broker;

import java.util.Optional;

/**
 * A queue a broker serves, as its subscription was declared.
 *
 * @param queue the table and group
 * @param deadLetter where its rows go once their attempts are spent, if the subscription declares it
 * @param workers how many of its deliveries run at once
 */
public record ServedQueue(InboxQueue<?> queue, Optional<DeadLetter> deadLetter, int workers) {}
