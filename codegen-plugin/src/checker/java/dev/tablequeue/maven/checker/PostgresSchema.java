package dev.tablequeue.maven.checker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** PostgreSQL: partial indexes keep their WHERE in {@code pg_index.indpred}, which JDBC metadata leaves out. */
final class PostgresSchema implements SchemaDialect {
    @Override
    public Optional<String> indexPredicate(Connection c, String schema, String table, String index)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_get_expr(i.indpred, i.indrelid)"
                + " from pg_catalog.pg_index i join pg_catalog.pg_class x on x.oid = i.indexrelid"
                + " join pg_catalog.pg_namespace n on n.oid = x.relnamespace"
                + " where x.relname = ? and n.nspname = coalesce(?, current_schema())")) {
            ps.setString(1, index);
            ps.setString(2, schema);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
            }
        }
    }
}
