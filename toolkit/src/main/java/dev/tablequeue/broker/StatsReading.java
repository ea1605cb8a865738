package dev.tablequeue.broker;

import dev.tablequeue.binding.ClockSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.AdminStatements;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The queue admin's counts of one queue ({@link QueueAdmin#stats}): pending, scheduled, in work and processed
 * rows and the oldest pending row's age in one statement, the rows by attempt in another, and the dead letters
 * where the queue has them, all on one connection.
 */
final class StatsReading {
    private final AdminConnection admin;
    private final QueueDialect dialect;
    private final Clock clock;

    StatsReading(AdminConnection admin, QueueDialect dialect, Clock clock) {
        this.admin = admin;
        this.dialect = dialect;
        this.clock = clock;
    }

    /**
     * The counts of {@code queue}, whose rows go to {@code deadLetter} (null where it has none); in a form whose
     * table does not mark rows in work, {@code inBroker} is the count the serving broker keeps (empty: unknown).
     */
    QueueStats read(InboxQueue<?> queue, DeadLetter deadLetter, OptionalLong inBroker) {
        RoleBinding<?> b = queue.binding();
        AdminStatements statements = AdminStatements.of(dialect, b);
        Instant now = clock.instant();
        return admin.with(c -> {
            Binds binds = new Binds().group(queue.group()).now(now);
            Counts counts = admin.query(c, statements.stats(), binds, b, queue, rs -> {
                rs.next();
                Instant oldest = b.column(Role.RETRY_AFTER).isPresent()
                        ? dialect.readTime(rs, 5, b.column(Role.RETRY_AFTER).get())
                        : null;
                Instant reference = b.clock() == ClockSource.DATABASE ? dialect.readTime(rs, 6, dialect.databaseNow())
                        : now;
                return new Counts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), oldest, reference);
            });
            SortedMap<Integer, Long> attempts = new TreeMap<>();
            if (b.has(Role.ATTEMPT)) {
                admin.query(c, statements.attempts(), binds, b, queue, rs -> {
                    while (rs.next()) {
                        attempts.put(rs.getInt(1), rs.getLong(2));
                    }
                    return null;
                });
            }
            OptionalLong dead = deadLetter == null ? OptionalLong.empty()
                    : OptionalLong.of(countDead(c, statements, queue, deadLetter));
            return new QueueStats(b.tableName(), queue.name(), counts.pending(), counts.scheduled(), inWork(queue, counts, inBroker),
                    dead, counts.processed(), counts.oldestAge(), attempts);
        });
    }

    /** One row of the stats statement. */
    private record Counts(long pending, long scheduled, long leased, long processed, Instant oldest, Instant now) {
        Optional<Duration> oldestAge() {
            if (oldest == null) {
                return Optional.empty();
            }
            Duration age = Duration.between(oldest, now);
            return Optional.of(age.isNegative() ? Duration.ZERO : age);
        }
    }

    private static OptionalLong inWork(InboxQueue<?> queue, Counts counts, OptionalLong inBroker) {
        return queue.binding().form() == Form.LEASE ? OptionalLong.of(counts.leased()) : inBroker;
    }

    private long countDead(Connection c, AdminStatements statements, InboxQueue<?> queue, DeadLetter deadLetter)
            throws SQLException {
        return switch (deadLetter) {
            case DeadLetter.ToGroup g -> admin.query(c, statements.deadInGroup(), new Binds().group(g.group()),
                    queue.binding(), queue, AdminRows::firstLong);
            case DeadLetter.ToTable t -> admin.query(c, statements.deadInTable(t.table()), new Binds().group(queue.group()),
                    queue.binding(), queue, AdminRows::firstLong);
        };
    }
}
