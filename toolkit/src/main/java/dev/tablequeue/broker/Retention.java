package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Field;

/**
 * How long one bound table keeps its finished rows: acknowledged rows (by their processedAt column) and dead
 * letters (by a time column the service names), deleted by the broker once past their age.
 *
 * <pre>{@code
 * QueueBroker.builder(dataSource)
 *     .retention(Retention.of(SEND_EMAIL)
 *         .acknowledged(Duration.ofDays(7))
 *         .dead(DeadLetter.group("escalated"), EMAIL_JOBS.RETRY_AFTER, Duration.ofDays(30)))
 *     .build();
 * }</pre>
 *
 * <p>Retention deletes only finished rows: acknowledged ones, and the rows of a dead letter (in the lease form,
 * those no lease holds). A row pending, in work or waiting for its retry is never one of them. Immutable: each
 * method returns a new declaration.
 */
public final class Retention {
    private final RoleBinding<?> binding;
    private final Duration acknowledged;
    private final List<Dead> dead;
    private final Field<?> keepNewestPer;

    /** What one dead letter of the table keeps: its rows past {@code age} by {@code agedBy} are deleted. */
    record Dead(DeadLetter deadLetter, Field<?> agedBy, Duration age) {}

    private Retention(RoleBinding<?> binding, Duration acknowledged, List<Dead> dead, Field<?> keepNewestPer) {
        this.binding = binding;
        this.acknowledged = acknowledged;
        this.dead = List.copyOf(dead);
        this.keepNewestPer = keepNewestPer;
    }

    /** The retention of {@code binding}'s table, which keeps every row until told otherwise. */
    public static Retention of(RoleBinding<?> binding) {
        return new Retention(Objects.requireNonNull(binding, "binding"), null, List.of(), null);
    }

    /**
     * Deletes the acknowledged rows processed more than {@code age} ago (by the broker's clock). The table keeps
     * its acknowledged rows in its processedAt column; {@code start()} refuses a table without one.
     */
    public Retention acknowledged(Duration age) {
        return new Retention(binding, positive(age, "acknowledged"), dead, keepNewestPer);
    }

    /**
     * Deletes the rows of {@code deadLetter} whose {@code agedBy} is more than {@code age} ago: a column of the
     * queue table for a dead-letter group (its retryAfter column, say, the time the row was last due), a column of
     * the dead-letter table for a table (a time its insert fills, say). A row whose column is null stays.
     */
    public Retention dead(DeadLetter deadLetter, Field<? extends Temporal> agedBy, Duration age) {
        Objects.requireNonNull(deadLetter, "deadLetter");
        Objects.requireNonNull(agedBy, "agedBy");
        List<Dead> more = new ArrayList<>(dead);
        if (more.stream().anyMatch(d -> d.deadLetter().equals(deadLetter))) {
            throw new IllegalArgumentException("the retention of table \"" + binding.tableName() + "\" declares dead"
                    + " letter " + deadLetter + " twice");
        }
        more.add(new Dead(deadLetter, agedBy, positive(age, "dead")));
        return new Retention(binding, acknowledged, more, keepNewestPer);
    }

    /**
     * Keeps, among the rows with one value of {@code column} (a schedule's name, say), the newest (the highest
     * id), however old: retention deletes the others past their age. A row whose column is null ages as any
     * other. It applies to the acknowledged rows and to a dead-letter group, both in the queue table.
     */
    public Retention keepNewestPer(Field<?> column) {
        return new Retention(binding, acknowledged, dead, Objects.requireNonNull(column, "column"));
    }

    /** The binding of the table. */
    public RoleBinding<?> binding() {
        return binding;
    }

    /** The age of acknowledged rows, where declared. */
    public Optional<Duration> acknowledgedAge() {
        return Optional.ofNullable(acknowledged);
    }

    List<Dead> dead() {
        return dead;
    }

    Optional<Field<?>> keepNewestPer() {
        return Optional.ofNullable(keepNewestPer);
    }

    private static Duration positive(Duration age, String what) {
        Objects.requireNonNull(age, "age");
        if (age.isNegative() || age.isZero()) {
            throw new IllegalArgumentException("a retention's " + what + " age must be positive, was " + age);
        }
        return age;
    }

    @Override
    public String toString() {
        return "retention of table \"" + binding.tableName() + "\"";
    }
}
