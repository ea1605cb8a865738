package dev.tablequeue.broker;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.AdminStatements;
import dev.tablequeue.internal.Binds;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jooq.Field;
import org.jooq.Table;

/**
 * What the queue admin reads and changes row by row for an operator: the rows that failed, the dead letters, a
 * row made due now or deleted, and the acknowledgements per period. Every statement is built from the binding;
 * what a caller gives (an id, a limit) is bound, never written into SQL.
 */
final class Inspection {
    /** The most rows one listing returns. */
    static final int MOST_ROWS = 1000;

    private final AdminConnection admin;
    private final Clock clock;

    Inspection(AdminConnection admin, Clock clock) {
        this.admin = admin;
        this.clock = clock;
    }

    /** Up to {@code limit} unfinished rows of {@code group} in {@code from}: those that failed, or with {@code all} every one. */
    List<QueueRow> rows(InboxQueue<?> queue, Table<?> from, String group, boolean all, int limit) {
        if (limit < 1 || limit > MOST_ROWS) {
            throw new IllegalArgumentException("a listing of rows takes 1 to " + MOST_ROWS + " rows, not " + limit
                    + " (" + queue + ")");
        }
        RoleBinding<?> b = queue.binding();
        AdminStatements statements = AdminStatements.of(admin.dialect, b);
        Binds binds = new Binds().group(group).limit(limit);
        return admin.with(c -> admin.query(c, statements.rows(from, all), binds, b, queue, rs -> {
            List<QueueRow> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row(b, rs));
            }
            return rows;
        }));
    }

    private QueueRow row(RoleBinding<?> b, ResultSet rs) throws SQLException {
        Object id = RowReader.converted(b.id().getDataType(), rs.getObject(1));
        int attempt = rs.getInt(2);
        OptionalInt attempts = rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(attempt);
        Optional<String> lastError = Optional.ofNullable(rs.getString(3));
        Optional<Field<?>> retryAfter = b.column(Role.RETRY_AFTER);
        Instant due = retryAfter.isPresent() ? admin.dialect.readTime(rs, 4, retryAfter.get()) : null;
        return new QueueRow(id, attempts, lastError, Optional.ofNullable(due));
    }

    /** Makes the unfinished row {@code id} of {@code queue} due now; whether a row was changed. */
    boolean retryNow(InboxQueue<?> queue, Object id) {
        AdminStatements statements = AdminStatements.of(admin.dialect, queue.binding());
        Binds binds = new Binds().group(queue.group()).id(converted(queue, id)).now(clock.instant());
        return admin.with(c -> admin.update(c, statements.retryNow(), binds, queue)) == 1;
    }

    /** Deletes the unfinished row {@code id} of {@code group} in {@code from}; whether a row was deleted. */
    boolean delete(InboxQueue<?> queue, Table<?> from, String group, Object id) {
        AdminStatements statements = AdminStatements.of(admin.dialect, queue.binding());
        Binds binds = new Binds().group(group).id(converted(queue, id));
        return admin.with(c -> admin.update(c, statements.deleteRow(from), binds, queue)) == 1;
    }

    /** The rows of {@code queue} acknowledged in each of the last {@code periods} periods of {@code period}. */
    Throughput throughput(InboxQueue<?> queue, Duration period, int periods) {
        if (periods < 1 || periods > 120 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a throughput reads 1 to 120 periods of a positive length, not "
                    + periods + " of " + period + " (" + queue + ")");
        }
        RoleBinding<?> b = queue.binding();
        AdminStatements statements = AdminStatements.of(admin.dialect, b);
        Field<?> processed = b.column(Role.PROCESSED_AT).orElse(null);
        Instant end = clock.instant();
        Instant from = end.minus(period.multipliedBy(periods));
        List<Object> bounds = new ArrayList<>();
        for (int i = 0; i <= periods; i++) {
            Instant bound = i == periods ? end.plusNanos(1) : from.plus(period.multipliedBy(i));
            bounds.add(processed == null ? bound : admin.dialect.timeValue(processed, bound));
        }
        Binds binds = new Binds().group(queue.group()).values(bounds);
        return admin.with(c -> admin.query(c, statements.processedPerPeriod(periods), binds, b, queue, rs -> {
            rs.next();
            List<Long> counts = new ArrayList<>();
            for (int i = 1; i <= periods; i++) {
                counts.add(rs.getLong(i));
            }
            return new Throughput(from, period, counts);
        }));
    }

    private static Object converted(InboxQueue<?> queue, Object id) {
        return RowReader.converted(queue.binding().id().getDataType(), id);
    }
}
