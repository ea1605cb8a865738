package dev.tablequeue.maven.checker;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * SQLite: a column's type is an affinity read from its declared name, there is no time type (the toolkit
 * writes times as text in {@code SqliteTime}'s layout, so a time role's column is text, and a jOOQ class may
 * declare a text column as a time), and a partial index keeps its WHERE in the {@code CREATE INDEX} text.
 */
final class SqliteSchema implements SchemaDialect {
    @Override
    public TypeFamily family(int jdbcType, String typeName) {
        // SQLite's affinity rules (section 3.1 of its "Datatypes" page), in their order.
        String name = typeName == null ? "" : typeName.toUpperCase(Locale.ROOT);
        if (name.contains("INT")) {
            return TypeFamily.INTEGER;
        }
        if (name.contains("CHAR") || name.contains("CLOB") || name.contains("TEXT")) {
            return TypeFamily.TEXT;
        }
        if (name.contains("BLOB") || name.isBlank()) {
            return TypeFamily.BINARY;
        }
        if (name.contains("REAL") || name.contains("FLOA") || name.contains("DOUB")) {
            return TypeFamily.FLOAT;
        }
        return TypeFamily.DECIMAL;
    }

    @Override
    public Set<TypeFamily> timeFamilies() {
        return Set.of(TypeFamily.TEXT);
    }

    @Override
    public boolean matches(TypeFamily declared, TypeFamily migrated) {
        if (declared == migrated) {
            return true;
        }
        boolean time = declared == TypeFamily.TIMESTAMP || declared == TypeFamily.TIMESTAMP_TZ
                || declared == TypeFamily.DATE || declared == TypeFamily.TIME;
        return migrated == TypeFamily.TEXT && (time || declared == TypeFamily.JSON || declared == TypeFamily.UUID)
                || migrated == TypeFamily.DECIMAL && declared == TypeFamily.BOOLEAN;
    }

    @Override
    public Optional<String> indexPredicate(Connection c, String schema, String table, String index)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select sql from sqlite_master where type = 'index' and name = ?")) {
            ps.setString(1, index);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) {
                    return Optional.empty();
                }
                String sql = rs.getString(1);
                int where = sql.toUpperCase(Locale.ROOT).lastIndexOf(" WHERE ");
                return where < 0 ? Optional.empty() : Optional.of(sql.substring(where + 7).trim());
            }
        }
    }
}
