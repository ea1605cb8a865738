package dev.tablequeue.broker;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An unfinished row of a queue, as an operator looks at it ({@link QueueAdmin#failing},
 * {@link QueueAdmin#deadLetters}).
 *
 * @param id the row's id
 * @param attempt its attempt column's value (the attempt its next delivery reads), where the table has one
 * @param lastError why it last failed, where the table keeps it and it failed
 * @param due when it comes due (its retryAfter), where the table has one
 */
public record QueueRow(Object id, OptionalInt attempt, Optional<String> lastError, Optional<Instant> due) {}
