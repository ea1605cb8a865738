package dev.tablequeue.broker;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which dead letters {@link QueueAdmin#redrive} moves back into their queue: all of them, those with the given
 * ids, or those that came due (their retryAfter) longer ago than an age; ids and an age together take the
 * rows that match both.
 *
 * @param ids the ids of the rows, in any type the id column converts from; empty for every row
 * @param olderThan the age, if one is set
 */
public record Redrive(List<?> ids, Optional<Duration> olderThan) {
    public Redrive {
        ids = List.copyOf(ids);
        Objects.requireNonNull(olderThan, "olderThan");
        olderThan.ifPresent(age -> {
            if (age.isNegative()) {
                throw new IllegalArgumentException("a redrive's age cannot be negative: " + age);
            }
        });
    }

    /** Every dead letter of the queue. */
    public static Redrive all() {
        return new Redrive(List.of(), Optional.empty());
    }

    /** The dead letters with these ids. */
    public static Redrive ids(List<?> ids) {
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("a redrive by id names at least one id");
        }
        return new Redrive(ids, Optional.empty());
    }

    /** The dead letters that came due longer than {@code age} ago. */
    public static Redrive olderThan(Duration age) {
        return new Redrive(List.of(), Optional.of(age));
    }

    /** These rows, and only those older than {@code age}. */
    public Redrive andOlderThan(Duration age) {
        return new Redrive(ids, Optional.of(age));
    }
}
