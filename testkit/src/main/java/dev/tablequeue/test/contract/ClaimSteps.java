package dev.tablequeue.test.contract;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SubscriptionStatements;
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
 * A dialect's claims run as the runtime runs them: through its own steps ({@link ClaimSequence}: the FIFO guard,
 * the claim, the lease stamp, the advisory candidates and take), over statements built as a subscription builds
 * them, with the rows read as column maps by lower-case label.
 */
final class ClaimSteps {
    private final QueueDialect dialect;
    private final Map<StepsOf, ClaimSequence<Map<String, Object>>> steps = new ConcurrentHashMap<>();

    ClaimSteps(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * The claim steps of {@code b}'s queue of {@code group}, its statements built in {@code shape}, its
     * candidates and takes at {@code now}. Built once per binding, shape, group and time.
     */
    ClaimSequence<Map<String, Object>> of(RoleBinding<?> b, ClaimShape shape, String group, Instant now) {
        return steps.computeIfAbsent(new StepsOf(b, shape, group, now), k -> new ClaimSequence<>(dialect, b,
                SubscriptionStatements.build(dialect, b, shape, false, null), group, () -> now, new MapRows(b)));
    }

    private record StepsOf(RoleBinding<?> binding, ClaimShape shape, String group, Instant now) {}

    /**
     * The guard and the claim of the binding's form at {@code now}, then the lease stamp (to {@code until}) where
     * the claim does not stamp its rows, asserted to write each row, in the transaction {@code c} has open.
     */
    List<Map<String, Object>> claimInTransaction(Connection c, RoleBinding<?> b, ClaimShape shape, String group,
            Instant now, int limit, Instant until) throws SQLException {
        ClaimSequence<Map<String, Object>> sequence = of(b, shape, group, now);
        List<Map<String, Object>> rows = sequence.claim(c, now, until, limit);
        int stamped = sequence.stamp(c, rows, until);
        int expected = b.form() == Form.LEASE && !dialect.claimLeaseStamps() ? rows.size() : 0;
        if (stamped != expected) {
            throw new AssertionError("the stamp wrote " + stamped + " of " + expected + " rows");
        }
        return rows;
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
    private record MapRows(RoleBinding<?> binding) implements ClaimSequence.Rows<Map<String, Object>> {
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
