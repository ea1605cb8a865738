package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.internal.StatementBinder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Record;

/**
 * Runs a dialect's built statements on a JDBC connection as the runtime does: prepared, bound in the
 * statement's order, and each claim through the runtime's own steps ({@link ClaimSequence}: FIFO guard,
 * claim, stamp), in a transaction opened here.
 */
final class StatementRunner {
    private final QueueDialect dialect;
    private final Map<StepsOf, ClaimSequence<Map<String, Object>>> steps = new ConcurrentHashMap<>();
    private final Map<ClaimsOf, QueueClaims> claims = new ConcurrentHashMap<>();
    private final Map<SettlementsOf, QueueSettlements> settlements = new ConcurrentHashMap<>();

    StatementRunner(QueueDialect dialect) {
        this.dialect = dialect;
    }

    QueueDialect dialect() {
        return dialect;
    }

    List<Map<String, Object>> query(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            try (ResultSet rs = ps.executeQuery()) {
                return read(rs);
            }
        }
    }

    /** Runs a statement that returns rows through {@code execute()}, as an UPDATE .. RETURNING needs on SQLite. */
    List<Map<String, Object>> rows(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (!ps.execute()) {
                throw new AssertionError(statement + " returned no result set");
            }
            try (ResultSet rs = ps.getResultSet()) {
                return read(rs);
            }
        }
    }

    /** Runs a statement of either kind and consumes what it returns. */
    void run(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (ps.execute()) {
                try (ResultSet rs = ps.getResultSet()) {
                    read(rs);
                }
            }
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
     * runtime writes it (a dead letter into the group the binds name), its settlements built once per binding:
     * empty where every statement changed its row, else the statement that changed none.
     */
    Optional<Statement> settle(Connection c, RoleBinding<?> b, QueueSettlements.Kind kind, Binds binds)
            throws QueueSettlements.Failure {
        boolean toGroup = kind == QueueSettlements.Kind.DEAD_LETTER_TO_GROUP;
        return settlements.computeIfAbsent(new SettlementsOf(b, toGroup), k -> dialect.settlements(b, toGroup, null))
                .write(c, new QueueSettlements.Outcome(kind, binds));
    }

    private record SettlementsOf(RoleBinding<?> binding, boolean toGroup) {}

    /** A statement that answers one boolean-like value. */
    boolean answer(Connection c, Statement statement, Binds binds) throws SQLException {
        List<Map<String, Object>> rows = query(c, statement, binds);
        if (rows.size() != 1) {
            throw new AssertionError(statement.purpose() + " answered " + rows.size() + " rows");
        }
        Object value = rows.get(0).values().iterator().next();
        return value instanceof Boolean bool ? bool : value != null && ((Number) value).longValue() == 1L;
    }

    void run(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.execute();
        }
    }

    /** Auto-commit off and the binding's opening. */
    void begin(Connection c, RoleBinding<?> b) throws SQLException {
        TransactionOpening opening = dialect.transactionOpening(b);
        c.setAutoCommit(false);
        Optional<String> sql = opening.sql();
        if (sql.isPresent()) {
            run(c, sql.get());
        }
    }

    void commit(Connection c) throws SQLException {
        c.commit();
        c.setAutoCommit(true);
    }

    void rollback(Connection c) throws SQLException {
        c.rollback();
        c.setAutoCommit(true);
    }

    /** What one claim asks for: the queue's group, the host's "now", the most rows, the lease's end (lease form). */
    record ClaimAt(String group, Instant now, int limit, Instant until) {}

    /**
     * The runtime's claim steps ({@link ClaimSequence}) of {@code b}'s queue of {@code group}, its statements
     * built in {@code shape} as a subscription builds them, its candidates and takes at {@code now}, over rows
     * read as column maps. Built once per binding, shape, group and time.
     */
    ClaimSequence<Map<String, Object>> steps(RoleBinding<?> b, ClaimShape shape, String group, Instant now) {
        return steps.computeIfAbsent(new StepsOf(b, shape, group, now), k -> new ClaimSequence<>(
                dialect.keys(b, shape, false), group, () -> now, new MapRows(b)));
    }

    private record StepsOf(RoleBinding<?> binding, ClaimShape shape, String group, Instant now) {}

    /** The claims of {@code b}'s table in {@code shape}, as a subscription builds them. */
    QueueClaims claims(RoleBinding<?> b, ClaimShape shape) {
        return claims.computeIfAbsent(new ClaimsOf(b, shape), k -> dialect.claims(b, shape, false));
    }

    private record ClaimsOf(RoleBinding<?> binding, ClaimShape shape) {}

    /**
     * The claim of the binding's form in the transaction {@code c} has open, beside whatever else it runs: a row
     * lock claim (never made again), or a lease claim's steps (the guard, the claim, the stamp where the claim
     * does not stamp its rows).
     */
    List<Map<String, Object>> claimInTransaction(Connection c, RoleBinding<?> b, ClaimShape shape, ClaimAt at)
            throws SQLException {
        StatementClaims claims = (StatementClaims) claims(b, shape);
        if (b.form() == Form.LEASE) {
            return claims.leaseInTransaction(c, at.group(), at.now(), at.until(), at.limit(), new MapRows(b));
        }
        return claims.lockInTransaction(c, at.group(), at.now(), at.limit(), new MapRows(b));
    }

    /** A whole lease claim, as the runtime makes it: its transaction where it needs one, committed. */
    List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, ClaimAt at)
            throws SQLException {
        return claims(b, shape).claimLeased(c, at.group(), at.now(), at.until(), at.limit(), new MapRows(b));
    }

    /** Claimed rows as column maps, by lower-case label; a claimed id without a row fails the test. */
    private record MapRows(RoleBinding<?> binding) implements ClaimedRows<Map<String, Object>> {
        @Override
        public Map<String, Object> read(ResultSet rs) throws SQLException {
            return row(rs);
        }

        @Override
        public Map<String, Object> fromRecord(Record record, boolean stamped) {
            Map<String, Object> row = new LinkedHashMap<>();
            record.intoMap().forEach((name, value) -> row.put(name.toLowerCase(Locale.ROOT), value));
            return row;
        }

        @Override
        @SuppressWarnings("removal") // DataType.convert: jOOQ 3.19 has no replacement this fixture can share
        public Object id(Map<String, Object> row) {
            return binding.id().getDataType().convert(row.get(binding.id().getName().toLowerCase(Locale.ROOT)));
        }

        @Override
        public Map<String, Object> unfetched(Object id, String failure) {
            throw new AssertionError(failure);
        }
    }

    static List<Long> ids(List<Map<String, Object>> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        for (Map<String, Object> row : rows) {
            ids.add(((Number) row.get("id")).longValue());
        }
        return ids;
    }

    /** The current row of {@code rs} as a column map by lower-case label. */
    static Map<String, Object> row(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            row.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getObject(i));
        }
        return row;
    }

    static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
        List<Map<String, Object>> rows = new ArrayList<>();
        while (rs.next()) {
            rows.add(row(rs));
        }
        return rows;
    }
}
