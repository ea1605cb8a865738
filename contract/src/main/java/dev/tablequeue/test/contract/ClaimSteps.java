package dev.tablequeue.test.contract;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.internal.ClaimSequence;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Record;

/**
 * A dialect's claims run as the runtime runs them: the row lock and lease claims through the dialect's own
 * {@link QueueClaims}, the advisory claim through its {@link dev.tablequeue.dialect.QueueKeys} bound to a group and
 * a time as the runtime binds it ({@link ClaimSequence}), with the rows read as column maps by lower-case label.
 */
final class ClaimSteps {
    private final QueueDialect dialect;
    private final Map<StepsOf, ClaimSequence<Map<String, Object>>> steps = new ConcurrentHashMap<>();
    private final Map<ClaimsOf, QueueClaims> claims = new ConcurrentHashMap<>();

    ClaimSteps(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * The claim steps of {@code b}'s queue of {@code group}, its statements built in {@code shape}, its
     * candidates and takes at {@code now}. Built once per binding, shape, group and time.
     */
    ClaimSequence<Map<String, Object>> of(RoleBinding<?> b, ClaimShape shape, String group, Instant now) {
        return steps.computeIfAbsent(new StepsOf(b, shape, group, now), k -> new ClaimSequence<>(
                dialect.keys(b, shape, false), group, () -> now, new MapRows(b)));
    }

    private record StepsOf(RoleBinding<?> binding, ClaimShape shape, String group, Instant now) {}

    /** The claims of {@code b}'s table in {@code shape}, as a subscription builds them. Built once per binding and shape. */
    QueueClaims claims(RoleBinding<?> b, ClaimShape shape) {
        return claims.computeIfAbsent(new ClaimsOf(b, shape), k -> dialect.claims(b, shape, false));
    }

    private record ClaimsOf(RoleBinding<?> binding, ClaimShape shape) {}

    /** The row lock claim at {@code now}, its guard first where it has one, in the transaction {@code c} has open. */
    List<Map<String, Object>> claimLocked(Connection c, RoleBinding<?> b, ClaimShape shape, String group,
            Instant now, int limit) throws SQLException {
        return claims(b, shape).claimLocked(c, group, now, limit, new MapRows(b));
    }

    /**
     * The lease claim at {@code now}, to {@code until}, as the runtime makes it: its guard, its claim and the
     * stamp of the rows the claim did not stamp itself, in a transaction where it needs one, committed.
     */
    List<Map<String, Object>> claimLeased(Connection c, RoleBinding<?> b, ClaimShape shape, String group,
            Instant now, int limit, Instant until) throws SQLException {
        return claims(b, shape).claimLeased(c, group, now, until, limit, new MapRows(b));
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

    /** Every row of {@code rs}, closed after, as column maps by lower-case label. */
    static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
        try (rs) {
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row(rs));
            }
            return rows;
        }
    }

    /** Claimed rows as column maps; a claimed id without a row fails the test. */
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
        @SuppressWarnings("removal") // DataType.convert: jOOQ 3.19 has no replacement the kit can share
        public Object id(Map<String, Object> row) {
            return binding.id().getDataType().convert(row.get(binding.id().getName().toLowerCase(Locale.ROOT)));
        }

        @Override
        public Map<String, Object> unfetched(Object id, String failure) {
            throw new AssertionError(failure);
        }
    }
}
