package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueKeys;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the dialect contract's suites share: a database of their own per test class (from the hook's
 * {@link ContractDatabase#open}), the dialect under test, fresh {@link Jobs} tables, rows written and read back,
 * and the dialect's statements run as the runtime runs them (prepared, bound in the statement's order, each
 * claim through the runtime's own steps). A dialect author extends the suites, not this.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DialectFixture {
    private static final AtomicInteger TABLES = new AtomicInteger();

    /** The database and the dialect under test. */
    protected abstract ContractDatabase database();

    FreshDatabase db;
    QueueDialect dialect;
    /** Runs claims through the runtime's own steps. */
    private ClaimSteps runner;
    final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    /** Only the suites of this package extend it. */
    DialectFixture() {}

    @BeforeAll
    protected final void openDatabase() throws SQLException {
        db = database().open(getClass().getSimpleName());
        try (Connection c = db.connect()) {
            dialect = database().dialect(c);
        }
        runner = new ClaimSteps(dialect);
    }

    @AfterAll
    protected final void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    /** A new empty queue table. */
    Jobs newTable() {
        String name = "q" + TABLES.incrementAndGet();
        db.execute(database().createTable(name));
        return new Jobs(name, database().timeType());
    }

    /** A payload-mode binding of every ordering role, in {@code form} (the caller adds the lease or key). */
    RoleBinding.Builder<Record> payloadBinding(Jobs t, Form form) {
        return Jobs.payloadRoles(t);
    }

    /** What one row holds, set through a small builder. */
    final class Row {
        final Map<String, Object> values = new LinkedHashMap<>();

        Row group(String group) {
            values.put("grp", group);
            return this;
        }

        Row priority(int priority) {
            values.put("priority", priority);
            return this;
        }

        Row key(String key) {
            values.put("partition_key", key);
            return this;
        }

        Row due(Instant at) {
            values.put("retry_after", time(at));
            return this;
        }

        Row attempt(int attempt) {
            values.put("attempt", attempt);
            return this;
        }

        Row processed(Instant at) {
            values.put("processed_at", time(at));
            return this;
        }

        Row locked(Instant until) {
            values.put("locked_until", time(until));
            return this;
        }

        Row headers(String json) {
            values.put("headers", json);
            return this;
        }

        Row payload(byte[] bytes) {
            values.put("payload", bytes);
            return this;
        }

        Row note(String note) {
            values.put("note", note);
            return this;
        }
    }

    /** Inserts a row due a minute ago unless the row says otherwise, and returns its id. */
    long insert(Jobs t, Consumer<Row> fill) {
        Row row = new Row();
        row.due(now.minusSeconds(60));
        fill.accept(row);
        try (Connection c = db.connect()) {
            var dsl = DSL.using(c, dialect.sqlDialect(), new Settings().withExecuteLogging(false));
            Map<org.jooq.Field<?>, Object> values = new LinkedHashMap<>();
            row.values.forEach((column, value) -> values.put(t.field(column), value));
            var inserted = dsl.insertInto(t).set(values).returning(t.ID).fetchOne();
            return inserted.get(t.ID);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An instant in the time type of this database's columns. */
    Object time(Instant instant) {
        Class<?> type = database().timeType().getType();
        if (type == LocalDateTime.class) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Reads back a time column as an instant, whatever JDBC type the driver returned. */
    Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof java.sql.Timestamp ts) {
            return dialect.sqlDialect().family() == SQLDialect.POSTGRES
                    ? ts.toInstant()
                    : ts.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        if (value instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (value instanceof LocalDateTime ldt) {
            return ldt.toInstant(ZoneOffset.UTC);
        }
        if (value instanceof String text) {
            return SqliteTime.parse(text).toInstant();
        }
        throw new IllegalArgumentException("not a time: " + value.getClass());
    }

    // ================================================================ running statements

    /** Opens the claim transaction the binding declares. */
    void begin(Connection c, RoleBinding<?> b) throws SQLException {
        TransactionOpening opening = dialect.transactionOpening(b);
        if (opening.explicit()) {
            c.setAutoCommit(true);
            opening.sql().ifPresent(sql -> run(c, sql));
        } else {
            c.setAutoCommit(false);
            opening.sql().ifPresent(sql -> run(c, sql));
        }
    }

    void commit(Connection c, RoleBinding<?> b) throws SQLException {
        if (dialect.transactionOpening(b).explicit()) {
            run(c, "COMMIT");
        } else {
            c.commit();
            c.setAutoCommit(true);
        }
    }

    /**
     * The runtime's claim steps ({@link ClaimSequence}) of {@code b}'s queue of {@code group}, its statements
     * built as a subscription builds them; its candidates and takes run at this suite's "now".
     */
    ClaimSequence<Map<String, Object>> steps(RoleBinding<?> b, String group) {
        return runner.of(b, ClaimShape.ROLES, group, now);
    }

    /** Runs a row lock claim (after the FIFO guard, where there is one) in the open transaction. */
    List<Map<String, Object>> claim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit)
            throws SQLException {
        return claim(c, b, shape, limit, "a");
    }

    List<Map<String, Object>> claim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            String group) throws SQLException {
        return runner.claimLocked(c, b, shape, group, now, limit);
    }

    List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until) throws SQLException {
        return leaseClaim(c, b, shape, limit, until, "a");
    }

    List<Map<String, Object>> leaseClaimAt(Connection c, RoleBinding<?> b, Instant at, Instant until)
            throws SQLException {
        return leaseClaim(c, b, ClaimShape.IDS, 10, until, "a", at);
    }

    List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until, String group) throws SQLException {
        return leaseClaim(c, b, shape, limit, until, group, now);
    }

    /**
     * A whole lease claim as the runtime makes it (the guard, the claim, the stamp where the claim does not stamp
     * its rows, in a transaction where it needs one), committed.
     */
    private List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until, String group, Instant at) throws SQLException {
        return runner.claimLeased(c, b, shape, group, at, limit, until);
    }

    private void rollback(Connection c, RoleBinding<?> b) throws SQLException {
        if (dialect.transactionOpening(b).explicit()) {
            try {
                run(c, "ROLLBACK");
            } catch (IllegalStateException ignored) {
                // the failure ended the transaction already
            }
        } else {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /** The advisory take of one row through the runtime's steps, fetching it where the take does not return it. */
    List<Map<String, Object>> take(Connection c, RoleBinding<?> b, long id) throws SQLException {
        return steps(b, "a").take(c, id);
    }

    List<Map<String, Object>> query(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (!ps.execute()) {
                return List.of();
            }
            return ClaimSteps.read(ps.getResultSet());
        }
    }

    int update(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            return ps.executeUpdate();
        }
    }

    /**
     * Writes one outcome of {@code kind} to a row of {@code b}'s table through the dialect's settlements, as the
     * runtime writes it (a dead letter into the group the binds name): empty where every statement changed its
     * row, else the statement that changed none.
     */
    Optional<Statement> settle(Connection c, RoleBinding<?> b, QueueSettlements.Kind kind, Binds binds)
            throws QueueSettlements.Failure {
        return dialect.settlements(b, kind == QueueSettlements.Kind.DEAD_LETTER_TO_GROUP, null)
                .write(c, new QueueSettlements.Outcome(kind, binds));
    }

    /** The one statement that writes {@code kind} to one row of {@code b}'s table (an ack, a drop, a retry). */
    Statement outcome(RoleBinding<?> b, QueueSettlements.Kind kind) {
        List<Statement> statements = dialect.settlements(b, kind == QueueSettlements.Kind.DEAD_LETTER_TO_GROUP,
                null).statements(kind);
        assertThat(statements).as("the statements of %s", kind).hasSize(1);
        return statements.get(0);
    }

    /** A statement that answers one boolean-like value. */
    boolean answer(Connection c, Statement statement, Binds binds) throws SQLException {
        List<Map<String, Object>> rows = query(c, statement, binds);
        assertThat(rows).hasSize(1);
        Object value = rows.get(0).values().iterator().next();
        if (value instanceof Boolean bool) {
            return bool;
        }
        return value != null && ((Number) value).longValue() == 1L;
    }

    void run(Connection c, String sql) {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    Map<String, Object> stored(Table<?> t, long id) throws SQLException {
        return find(t, id).orElseThrow(() -> new AssertionError("no row " + id + " in " + t.getName()));
    }

    Optional<Map<String, Object>> find(Table<?> t, long id) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("SELECT * FROM " + t.getName() + " WHERE id = ?")) {
            ps.setLong(1, id);
            ps.execute();
            return ClaimSteps.read(ps.getResultSet()).stream().findFirst();
        }
    }

    List<Map<String, Object>> rows(Table<?> t) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("SELECT * FROM " + t.getName() + " ORDER BY id")) {
            ps.execute();
            return ClaimSteps.read(ps.getResultSet());
        }
    }

    static List<Long> ids(List<Map<String, Object>> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        for (Map<String, Object> row : rows) {
            ids.add(number(row, "id"));
        }
        Set<Long> distinct = new HashSet<>(ids);
        assertThat(distinct).as("a claim returns each row once").hasSameSizeAs(ids);
        return ids;
    }

    /** The ids of advisory candidates, each asserted to come once. */
    static List<Long> candidateIds(List<QueueKeys.Candidate> candidates) {
        List<Long> ids = new ArrayList<>(candidates.size());
        for (QueueKeys.Candidate candidate : candidates) {
            assertThat(candidate.id()).as("id").isInstanceOf(Number.class);
            ids.add(((Number) candidate.id()).longValue());
        }
        assertThat(new HashSet<>(ids)).as("candidates name each row once").hasSameSizeAs(ids);
        return ids;
    }

    static Map<String, Object> byId(List<Map<String, Object>> rows, long id) {
        return rows.stream().filter(r -> number(r, "id") == id).findFirst().orElseThrow();
    }

    static long number(Map<String, Object> row, String column) {
        Object value = row.get(column);
        assertThat(value).as(column).isInstanceOf(Number.class);
        return ((Number) value).longValue();
    }
}
