package dev.tablequeue.maven.checker;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads tables of the migrated database through JDBC metadata, each once. A table is looked up in the
 * schema its jOOQ class names, else in the connection's own catalog and schema.
 */
final class SchemaReader {
    private final Connection connection;
    private final SchemaDialect dialect;
    private final Map<String, Optional<TableShape>> read = new HashMap<>();

    SchemaReader(Connection connection, SchemaDialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    /** The table {@code name} of {@code schema} (null: the connection's), if the database has it. */
    Optional<TableShape> table(String schema, String name) throws SQLException {
        String key = schema + "\u0000" + name;
        Optional<TableShape> known = read.get(key);
        if (known == null) {
            known = load(schema, name);
            read.put(key, known);
        }
        return known;
    }

    private Optional<TableShape> load(String schema, String name) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String catalog = connection.getCatalog();
        String inSchema = schema != null ? schema : connection.getSchema();
        String spelled = null;
        // Metadata takes patterns, in which '_' matches any character: the exact name is picked from the answer.
        try (ResultSet rs = meta.getTables(catalog, inSchema, null, new String[] {"TABLE"})) {
            while (rs.next()) {
                String table = rs.getString("TABLE_NAME");
                if (table.equals(name) || (spelled == null && table.equalsIgnoreCase(name))) {
                    spelled = table;
                }
            }
        }
        if (spelled == null) {
            return Optional.empty();
        }
        List<String> primaryKey = primaryKey(meta, catalog, inSchema, spelled);
        Map<String, TableShape.Column> columns = new LinkedHashMap<>();
        try (ResultSet rs = meta.getColumns(catalog, inSchema, spelled, null)) {
            while (rs.next()) {
                if (!spelled.equals(rs.getString("TABLE_NAME"))) {
                    continue;
                }
                String column = rs.getString("COLUMN_NAME");
                String typeName = rs.getString("TYPE_NAME");
                // A primary key column holds no null, whatever the metadata says (SQLite's INTEGER PRIMARY KEY).
                boolean nullable = rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls
                        && primaryKey.stream().noneMatch(column::equalsIgnoreCase);
                columns.put(column, new TableShape.Column(column, typeName,
                        dialect.family(rs.getInt("DATA_TYPE"), typeName), nullable));
            }
        }
        return Optional.of(new TableShape(spelled, columns, primaryKey, indexes(meta, catalog, inSchema, spelled)));
    }

    private static List<String> primaryKey(DatabaseMetaData meta, String catalog, String schema, String table)
            throws SQLException {
        TreeMap<Integer, String> columns = new TreeMap<>();
        try (ResultSet rs = meta.getPrimaryKeys(catalog, schema, table)) {
            while (rs.next()) {
                if (table.equals(rs.getString("TABLE_NAME"))) {
                    columns.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
                }
            }
        }
        return List.copyOf(columns.values());
    }

    private List<TableShape.Index> indexes(DatabaseMetaData meta, String catalog, String schema, String table)
            throws SQLException {
        Map<String, TreeMap<Integer, String>> columns = new LinkedHashMap<>();
        Map<String, Boolean> unique = new HashMap<>();
        try (ResultSet rs = meta.getIndexInfo(catalog, schema, table, false, false)) {
            while (rs.next()) {
                String index = rs.getString("INDEX_NAME");
                if (index == null || rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic
                        || !table.equals(rs.getString("TABLE_NAME"))) {
                    continue;
                }
                columns.computeIfAbsent(index, k -> new TreeMap<>())
                        .put((int) rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
                unique.put(index, !rs.getBoolean("NON_UNIQUE"));
            }
        }
        List<TableShape.Index> indexes = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, String>> e : columns.entrySet()) {
            String index = e.getKey();
            indexes.add(new TableShape.Index(index, unique.get(index), new ArrayList<>(e.getValue().values()),
                    dialect.indexPredicate(connection, schema, table, index)));
        }
        return indexes;
    }
}
