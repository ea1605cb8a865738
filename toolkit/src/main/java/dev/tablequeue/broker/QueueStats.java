package dev.tablequeue.broker;

import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a queue holds at one moment, as {@link QueueAdmin#stats} read it.
 *
 * @param table the queue's table
 * @param queue the queue's name (its group, where the table has a group column)
 * @param pending rows a claim would take now: due, unfinished and (lease form) not leased. In the row lock
 *     and advisory forms the table does not mark a row in work, so these include the rows in work
 * @param scheduled unfinished rows due later (their retryAfter ahead); 0 where the table has no retryAfter
 * @param inWork rows in work: held by a lease (lease form, every process's), or else the deliveries in work of
 *     the broker the admin was given; empty where neither is known
 * @param dead unfinished rows in the queue's dead letter; empty where no dead letter was named
 * @param processed acknowledged rows the table keeps (processedAt set); 0 where an acknowledgement deletes
 * @param oldestPendingAge how long the oldest pending row has been due (since its retryAfter); empty where
 *     nothing is pending or the table has no retryAfter
 * @param attempts the queue's unfinished rows by the value of their attempt column (the attempt their next
 *     delivery reads: 1 for a row never retried); empty where the table has no attempt column
 */
public record QueueStats(
        String table,
        String queue,
        long pending,
        long scheduled,
        OptionalLong inWork,
        OptionalLong dead,
        long processed,
        Optional<Duration> oldestPendingAge,
        SortedMap<Integer, Long> attempts) {

    public QueueStats {
        attempts = Collections.unmodifiableSortedMap(new TreeMap<>(attempts));
    }
}
