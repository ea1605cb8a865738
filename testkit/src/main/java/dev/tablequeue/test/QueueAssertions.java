package dev.tablequeue.test;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueStats;
import java.util.Objects;
import java.util.OptionalLong;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.opentest4j.AssertionFailedError;

/**
 * Assertions on what a queue holds and on one of its rows, read from the database, each failing with the table,
 * the queue and what it found:
 *
 * <pre>{@code
 * QueueAssertions.assertQueue(admin, queue).hasPending(0).hasProcessed(3);
 * QueueAssertions.assertQueue(admin, queue, DeadLetter.group("dead")).hasDead(1);
 * QueueAssertions.assertRow(ctx, binding, id).isProcessed().hasAttemptColumn(2);
 * }</pre>
 */
public final class QueueAssertions {
    private QueueAssertions() {}

    /** Reads {@code queue}'s stats once; the assertions check that reading. */
    public static QueueAssert assertQueue(QueueAdmin admin, InboxQueue<?> queue) {
        return new QueueAssert(admin.stats(queue), false);
    }

    /** As {@link #assertQueue(QueueAdmin, InboxQueue)}, with the rows of its dead letter counted too. */
    public static QueueAssert assertQueue(QueueAdmin admin, InboxQueue<?> queue, DeadLetter deadLetter) {
        return new QueueAssert(admin.stats(queue, deadLetter), true);
    }

    /** Reads row {@code id} of {@code binding}'s table; fails where there is no such row. */
    public static RowAssert assertRow(DSLContext ctx, RoleBinding<?> binding, Object id) {
        Field<?> idColumn = binding.column(Role.ID).orElseThrow();
        Record row = ctx.selectFrom(binding.table()).where(idColumn.coerce(Object.class).eq(id)).fetchOne();
        if (row == null) {
            throw new AssertionFailedError(binding.tableName() + " has no row whose " + idColumn.getName() + " is "
                    + id);
        }
        return new RowAssert(binding, id, row);
    }

    /** Checks on one reading of a queue's stats. */
    public static final class QueueAssert {
        private final QueueStats stats;
        private final boolean deadRead;

        private QueueAssert(QueueStats stats, boolean deadRead) {
            this.stats = stats;
            this.deadRead = deadRead;
        }

        /** The reading the checks look at. */
        public QueueStats stats() {
            return stats;
        }

        /** Rows a claim would take now. */
        public QueueAssert hasPending(long expected) {
            return check("pending", expected, stats.pending());
        }

        /** Unfinished rows due later. */
        public QueueAssert hasScheduled(long expected) {
            return check("scheduled for later", expected, stats.scheduled());
        }

        /** Acknowledged rows the table keeps. */
        public QueueAssert hasProcessed(long expected) {
            return check("processed", expected, stats.processed());
        }

        /** Rows in work (lease form: held by a lease; otherwise the admin's broker's deliveries). */
        public QueueAssert hasInWork(long expected) {
            OptionalLong inWork = stats.inWork();
            if (inWork.isEmpty()) {
                throw new AssertionFailedError(where() + ": the rows in work are not known (the table keeps no lease,"
                        + " and the admin was not made from the broker: QueueAdmin.of(broker))");
            }
            return check("in work", expected, inWork.getAsLong());
        }

        /** Unfinished rows in the dead letter (read with {@code assertQueue(admin, queue, deadLetter)}). */
        public QueueAssert hasDead(long expected) {
            if (!deadRead || stats.dead().isEmpty()) {
                throw new AssertionFailedError(where() + ": no dead letter was read; name it:"
                        + " assertQueue(admin, queue, deadLetter)");
            }
            return check("in the dead letter", expected, stats.dead().getAsLong());
        }

        /** Unfinished rows whose attempt column holds {@code attempt}. */
        public QueueAssert hasRowsAtAttempt(int attempt, long expected) {
            return check("at attempt " + attempt, expected, stats.attempts().getOrDefault(attempt, 0L));
        }

        private QueueAssert check(String what, long expected, long actual) {
            if (expected != actual) {
                throw new AssertionFailedError(where() + ": expected " + expected + " row(s) " + what + ", found "
                        + actual + " (" + stats + ")", expected, actual);
            }
            return this;
        }

        private String where() {
            return "queue \"" + stats.queue() + "\" of " + stats.table();
        }
    }

    /** Checks on one row of a queue table, as read. */
    public static final class RowAssert {
        private final RoleBinding<?> binding;
        private final Object id;
        private final Record row;

        private RowAssert(RoleBinding<?> binding, Object id, Record row) {
            this.binding = binding;
            this.id = id;
            this.row = row;
        }

        /** The row as read. */
        public Record row() {
            return row;
        }

        /**
         * The attempt column holds {@code expected}: the attempt the row's next delivery would read. A lease claim
         * counts the attempt as it takes the row, so there a row delivered once holds 2; in the other forms a retry
         * counts it, and a row acknowledged at its first delivery still holds 1.
         */
        public RowAssert hasAttemptColumn(int expected) {
            Object value = row.get(column(Role.ATTEMPT));
            Integer actual = value == null ? null : ((Number) value).intValue();
            if (!Objects.equals(actual, expected)) {
                throw fail("its " + column(Role.ATTEMPT).getName() + " to be " + expected + ", found " + actual,
                        expected, actual);
            }
            return this;
        }

        /** The row was acknowledged (its processed-at column is set). */
        public RowAssert isProcessed() {
            Object at = row.get(column(Role.PROCESSED_AT));
            if (at == null) {
                throw fail("it to be processed, but its " + column(Role.PROCESSED_AT).getName() + " is NULL", "set",
                        null);
            }
            return this;
        }

        /** The row was not acknowledged. */
        public RowAssert isNotProcessed() {
            Object at = row.get(column(Role.PROCESSED_AT));
            if (at != null) {
                throw fail("it not to be processed, but its " + column(Role.PROCESSED_AT).getName() + " is " + at,
                        null, at);
            }
            return this;
        }

        /** The row's group column holds {@code expected} (a dead letter to a group moves it there). */
        public RowAssert isInGroup(String expected) {
            Object actual = row.get(column(Role.GROUP));
            if (!Objects.equals(expected, actual)) {
                throw fail("it in group \"" + expected + "\", found \"" + actual + "\"", expected, actual);
            }
            return this;
        }

        private Field<?> column(Role role) {
            return binding.column(role).orElseThrow(() -> new AssertionFailedError(binding.tableName()
                    + "'s binding declares no " + role + " column"));
        }

        private AssertionFailedError fail(String what, Object expected, Object actual) {
            return new AssertionFailedError("row " + id + " of " + binding.tableName() + ": expected " + what,
                    expected, actual);
        }
    }
}
