package dev.tablequeue.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The write a transactional handler makes for its jobs, as a raw loop makes it: one row per job into the bench
 * table's effects table, {@code n} rows in one {@code INSERT .. VALUES} statement, prepared once per count.
 */
final class RawEffects implements AutoCloseable {
    private final Connection c;
    private final String table;
    private final Map<Integer, PreparedStatement> inserts = new HashMap<>();

    RawEffects(Connection c, BenchTable bench) {
        this.c = c;
        this.table = Engine.effects(bench.getName());
    }

    /** Writes one effect row per id of {@code ids}, in the connection's current transaction. */
    void write(List<?> ids) throws SQLException {
        PreparedStatement ps = inserts.get(ids.size());
        if (ps == null) {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (job_id) VALUES (?)");
            for (int i = 1; i < ids.size(); i++) {
                sql.append(", (?)");
            }
            ps = c.prepareStatement(sql.toString());
            inserts.put(ids.size(), ps);
        }
        for (int i = 0; i < ids.size(); i++) {
            ps.setLong(i + 1, ((Number) ids.get(i)).longValue());
        }
        int written = ps.executeUpdate();
        if (written != ids.size()) {
            throw new IllegalStateException("the effects insert wrote " + written + " of " + ids.size() + " rows into "
                    + table);
        }
    }

    @Override
    public void close() throws SQLException {
        for (PreparedStatement ps : inserts.values()) {
            ps.close();
        }
    }
}
