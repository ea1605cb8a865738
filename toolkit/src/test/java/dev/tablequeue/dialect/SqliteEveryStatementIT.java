package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jooq.Field;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every statement the SQLite dialect builds, for every combination of roles, layout and form, prepared and
 * executed on a SQLite file: what jOOQ renders for SQLite is never trusted unrun. What the statements do is
 * asserted by {@link SqliteDialectContractIT} and the other SQLite tests.
 */
class SqliteEveryStatementIT {
    private static final SqliteDialect DIALECT = SqliteQueues.DIALECT;
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static final QueueTable<OffsetDateTime> T = new QueueTable<>("combo", SqliteQueues.TIME);
    private static final QueueTable<OffsetDateTime> DEAD = new QueueTable<>("combo_dead", SqliteQueues.TIME);

    private static SqliteQueues queues;
    private static Connection connection;

    @BeforeAll
    static void open() throws SQLException {
        queues = new SqliteQueues("sqlite_every_statement");
        queues.db.execute(SqliteQueues.ddl("combo"), SqliteQueues.ddl("combo_dead"));
        connection = queues.connect();
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("PRAGMA synchronous = OFF"); // thousands of one-statement commits; durability is not on trial
        }
        for (int i = 0; i < 4; i++) {
            queues.insert(connection, T, "g", i, T0.minusSeconds(10 - i));
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
        queues.close();
    }

    private enum Layout { PAYLOAD_AND_HEADERS, PAYLOAD_AND_HEADER_FIELDS, ROWS }

    private enum Kind { LEASE, FIFO_LEASE, ADVISORY, ADVISORY_ON_THE_DATABASE_CLOCK }

    static Stream<Arguments> bindings() {
        List<Arguments> all = new ArrayList<>();
        List<Role> optional = List.of(Role.GROUP, Role.PRIORITY, Role.PARTITION_KEY, Role.RETRY_AFTER, Role.ATTEMPT,
                Role.PROCESSED_AT);
        for (int mask = 0; mask < 1 << optional.size(); mask++) {
            List<Role> roles = new ArrayList<>();
            for (int i = 0; i < optional.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    roles.add(optional.get(i));
                }
            }
            for (Layout layout : Layout.values()) {
                for (Kind kind : Kind.values()) {
                    if (kind == Kind.FIFO_LEASE && !roles.contains(Role.GROUP)) {
                        continue;
                    }
                    // the last error cycles along, so it appears beside every role, layout and form
                    boolean lastError = (mask + layout.ordinal() + kind.ordinal()) % 2 == 0;
                    all.add(Arguments.of(kind + " " + layout + " " + roles + (lastError ? " last_error" : ""),
                            binding(roles, layout, kind, lastError)));
                }
            }
        }
        return all.stream();
    }

    private static RoleBinding<Record> binding(List<Role> roles, Layout layout, Kind kind, boolean lastError) {
        RoleBinding.Builder<Record> b = RoleBinding.of(T, T.ID);
        if (lastError) {
            b.lastError(T.LAST_ERROR);
        }
        for (Role role : roles) {
            switch (role) {
                case GROUP -> {
                    if (kind == Kind.FIFO_LEASE) {
                        b.fifoGroup(T.GRP);
                    } else {
                        b.group(T.GRP);
                    }
                }
                case PRIORITY -> b.priority(T.PRIORITY);
                case PARTITION_KEY -> b.partitionKey(T.PARTITION_KEY);
                case RETRY_AFTER -> b.retryAfter(T.RETRY_AFTER);
                case ATTEMPT -> b.attempt(T.ATTEMPT);
                case PROCESSED_AT -> b.processedAt(T.PROCESSED_AT);
                default -> throw new IllegalArgumentException(role.toString());
            }
        }
        switch (layout) {
            case PAYLOAD_AND_HEADERS -> b.payload(T.PAYLOAD).headers(T.HEADERS);
            case PAYLOAD_AND_HEADER_FIELDS -> b.payload(T.PAYLOAD).headerFields(T.NOTE);
            case ROWS -> b.headers(T.HEADERS).data(T.NOTE);
        }
        switch (kind) {
            case LEASE, FIFO_LEASE -> b.lease(T.LOCKED_UNTIL);
            case ADVISORY -> b.advisory("combo-{id}");
            case ADVISORY_ON_THE_DATABASE_CLOCK -> b.advisory("combo-{id}").databaseClock();
        }
        return b.build();
    }

    private static List<Statement> statements(RoleBinding<Record> b) {
        List<Statement> all = new ArrayList<>();
        if (b.form() == Form.LEASE) {
            for (ClaimShape shape : ClaimShape.values()) {
                all.add(DIALECT.claimLease(b, shape));
            }
            all.add(DIALECT.leaseStamp(b, 1));
            all.add(DIALECT.leaseStamp(b, 3));
            all.add(DIALECT.leaseExtend(b));
        } else {
            all.add(DIALECT.advisoryCandidates(b));
            for (ClaimShape shape : ClaimShape.values()) {
                all.add(DIALECT.advisoryTake(b, shape));
            }
        }
        for (ClaimShape shape : ClaimShape.values()) {
            all.add(DIALECT.fetchByIds(b, shape, 1, false));
            all.add(DIALECT.fetchByIds(b, shape, 3, true));
        }
        DIALECT.retry(b).ifPresent(all::add);
        if (b.has(Role.RETRY_AFTER)) {
            all.add(DIALECT.retryAfter(b));
        }
        if (b.has(Role.GROUP)) {
            all.add(DIALECT.deadLetterToGroup(b));
        }
        all.addAll(DIALECT.deadLetterToTable(b, DEAD));
        all.add(DIALECT.ack(b));
        all.add(DIALECT.drop(b));
        return all;
    }

    private static Object valueFor(Field<?> column) {
        return switch (column.getName()) {
            case "grp" -> "g";
            case "priority" -> 1;
            case "attempt" -> 1;
            case "payload" -> "payload".getBytes(StandardCharsets.UTF_8);
            case "retry_after" -> SqliteTime.format(T0);
            default -> column.getName() + " text";
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bindings")
    void every_statement_prepares_and_executes(String name, RoleBinding<Record> b) throws Exception {
        DIALECT.validate(b);
        Binds binds = new Binds().group("g").now(T0).retryAt(T0.plusSeconds(60)).delay(Duration.ofSeconds(5))
                .limit(3).leaseUntil(T0.plusSeconds(30)).leaseHeld(T0.plusSeconds(30)).destination("dead")
                .ids(List.of(1L, 2L, 3L)).lastError("java.lang.IllegalStateException: failed");

        Statement insert = DIALECT.insert(b);
        assertThat(queues.run.update(connection, insert,
                new Binds().values(b.insertColumns().stream().map(SqliteEveryStatementIT::valueFor).toList())))
                .as(insert.toString()).isOne();
        for (Statement s : statements(b)) {
            assertThat(s.sql()).doesNotContainIgnoringCase("for update").doesNotContainIgnoringCase("skip locked");
            assertThat(s.sql().chars().filter(ch -> ch == '?').count()).as(s.toString()).isEqualTo(s.params().size());
            try {
                queues.run.run(connection, s, binds);
            } catch (SQLException e) {
                throw new AssertionError(name + ": " + s + " failed: " + e.getMessage(), e);
            }
        }
        TransactionOpening opening = DIALECT.transactionOpening(b);
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute(opening.sql().orElseThrow());
            s.execute("ROLLBACK");
        }
    }
}
