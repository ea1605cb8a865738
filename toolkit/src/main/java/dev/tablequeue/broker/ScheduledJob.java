package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.time.Instant;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * One schedule a broker runs: where it publishes, what, and how far it has come. Its cursor is the newest instant
 * it has dealt with (published, found published, or skipped); each tick publishes the newest instant due after
 * it, so a tick that came late by more than one instant publishes the latest once, never a burst.
 */
final class ScheduledJob {
    final RecurringJob job;
    final Schedule schedule;
    final InboxQueue<?> queue;
    private volatile Instant cursor;
    private volatile Instant last;

    ScheduledJob(RecurringJob job) {
        this.job = job;
        this.schedule = job.schedule();
        this.queue = job.queue();
    }

    /** Who the start's refusals name. */
    String user() {
        return job.toString();
    }

    /**
     * The binding's rules for a schedule: a unique key over every row, in a text column long enough for the keys,
     * on a table that keeps its processed rows.
     *
     * @throws DeclarationException naming the schedule, the table and the reason
     */
    void checkBinding() {
        RoleBinding<?> b = queue.binding();
        Optional<Field<?>> key = b.column(Role.UNIQUE_KEY);
        if (key.isEmpty()) {
            throw refused("its binding declares no unique key: a schedule publishes each instant once through the"
                    + " key name@instant, so declare uniqueKey(column) with a unique index on that column");
        }
        if (b.uniqueWhilePending()) {
            throw refused("its key is held only while pending (uniqueKeyWhilePending): an instant's key would be"
                    + " free again once its row is processed, and another instance could publish it again;"
                    + " declare uniqueKey(column)");
        }
        if (!b.has(Role.PROCESSED_AT)) {
            throw refused("its binding has no processedAt(..) column, so an acknowledgement deletes the row, and"
                    + " with it the key: another instance could publish the instant again. A schedule's table"
                    + " keeps its processed rows");
        }
        if (key.get().getType() != String.class) {
            throw refused("its unique key column \"" + key.get().getName() + "\" is not a text column");
        }
        int length = key.get().getDataType().length();
        int needed = ScheduleKeys.length(schedule.name());
        if (length > 0 && length < needed) {
            throw refused("its unique key column \"" + key.get().getName() + "\" holds " + length + " characters,"
                    + " and the schedule's keys have " + needed);
        }
    }

    private DeclarationException refused(String why) {
        return new DeclarationException(user() + " is refused: " + why);
    }

    /**
     * Reads the newest instant the table holds for the schedule, and sets the cursor from it and the start's
     * {@code now}: with no row, the first instant is the first after the start; with rows, the instants after
     * the newest one that are due by now were missed, and the schedule's {@link Schedule.Missed} says whether
     * the latest of them is published.
     */
    void open(DSLContext db, Instant now) {
        Optional<Instant> newest = newest(db);
        last = newest.orElse(null);
        if (newest.isEmpty() || schedule.missed() == Schedule.Missed.SKIP) {
            cursor = newest.filter(n -> n.isAfter(now)).orElse(now);
        } else {
            cursor = newest.get();
        }
    }

    private Optional<Instant> newest(DSLContext db) {
        @SuppressWarnings("unchecked")
        Field<String> key = (Field<String>) queue.binding().column(Role.UNIQUE_KEY).orElseThrow();
        String prefix = ScheduleKeys.prefix(schedule.name());
        // startsWith escapes the name's % and _; the keys of one schedule have one width, so the greatest is the newest
        String greatest = db.select(DSL.max(key)).from(queue.binding().table()).where(key.startsWith(prefix))
                .fetchOne(0, String.class);
        if (greatest == null) {
            return Optional.empty();
        }
        return Optional.of(ScheduleKeys.instant(schedule.name(), greatest).orElseThrow(() -> new SchemaException(
                user() + ": the newest key of the schedule, \"" + greatest + "\", is not name@instant as a schedule"
                        + " writes it (uuuu-MM-ddTHH:mm:ssZ)")));
    }

    /** Publishes the newest instant due by {@code now} after the cursor, if there is one; returns whether it wrote. */
    boolean tick(Publisher publisher, Instant now) {
        Optional<Instant> due = schedule.latest(now).filter(i -> i.isAfter(cursor));
        if (due.isEmpty()) {
            return false;
        }
        Instant instant = due.get();
        @SuppressWarnings("unchecked")
        Field<String> key = (Field<String>) queue.binding().column(Role.UNIQUE_KEY).orElseThrow();
        Message message = Message.of(queue.name(), job.payload().apply(instant)).set(key,
                ScheduleKeys.key(schedule.name(), instant));
        boolean inserted = publisher.publish(queue.binding(), message).inserted();
        cursor = instant;
        last = instant;
        return inserted;
    }

    /**
     * The schedule's state as its table holds it, for an admin without the broker: the newest instant in the
     * table, and the first instant after both it and {@code now}, which a running broker publishes next.
     */
    ScheduleState stateInTable(DSLContext db, Instant now) {
        Optional<Instant> newest = newest(db);
        Instant from = newest.filter(n -> n.isAfter(now)).orElse(now);
        return new ScheduleState(schedule.name(), schedule.timing(), queue.binding().tableName(), queue.name(),
                newest.orElse(null), schedule.next(from).orElse(null));
    }

    /** The schedule's state; before the start, its next instant is the first after {@code now}. */
    ScheduleState state(Instant now) {
        Instant from = cursor == null ? now : cursor;
        return new ScheduleState(schedule.name(), schedule.timing(), queue.binding().tableName(), queue.name(), last,
                schedule.next(from).orElse(null));
    }
}
