package dev.tablequeue.broker;

import java.util.Optional;

/**
 * A queue a broker serves, as its subscription was declared.
 *
 * @param queue the table and group
 * @param deadLetter where its rows go once their attempts are spent, if the subscription declares it
 * @param workers how many of its deliveries run at once
 * @param payloadType what its handler takes: the payload's type ({@code byte[]} for raw bytes), or the table's
 *     record type in row mode
 * @param rows whether the handler takes rows rather than a decoded payload
 */
public record ServedQueue(InboxQueue<?> queue, Optional<DeadLetter> deadLetter, int workers, Class<?> payloadType,
        boolean rows) {}
