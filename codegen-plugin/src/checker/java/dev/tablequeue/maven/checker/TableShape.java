package dev.tablequeue.maven.checker;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A table as the migrated database has it: its columns, primary key and indexes.
 *
 * @param name the table's name as the database spells it
 * @param columns by name
 * @param primaryKey the primary key's columns in order, empty where it has none
 * @param indexes every index, the primary key's included where the database lists it as one
 */
record TableShape(String name, Map<String, Column> columns, List<String> primaryKey, List<Index> indexes) {

    /**
     * One column.
     *
     * @param typeName the type as the database names it ("timestamptz", "LONGBLOB", "TEXT")
     */
    record Column(String name, String typeName, TypeFamily family, boolean nullable) {}

    /**
     * One index.
     *
     * @param columns its columns in order (an expression's entry is null)
     * @param predicate the WHERE of a partial index, where the database has one
     */
    record Index(String name, boolean unique, List<String> columns, Optional<String> predicate) {
        /** Whether a partial index leaves out the rows whose {@code column} is set ({@code WHERE column IS NULL}). */
        boolean onlyWhereNull(String column) {
            return predicate.map(p -> p.toLowerCase(Locale.ROOT).replaceAll("[\"`()\\[\\]]", "")
                    .matches(".*\\b" + column.toLowerCase(Locale.ROOT) + "\\s+is\\s+null\\b.*")).orElse(false);
        }
    }

    /** The column named {@code name}: its exact name first, else regardless of case. */
    Optional<Column> column(String name) {
        Column exact = columns.get(name);
        if (exact != null) {
            return Optional.of(exact);
        }
        return columns.values().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst();
    }

    /** Whether {@code column} alone is a key: the primary key, or a unique index on it alone. */
    boolean isKey(String column) {
        if (primaryKey.size() == 1 && primaryKey.get(0).equalsIgnoreCase(column)) {
            return true;
        }
        return indexes.stream().anyMatch(i -> i.unique() && i.predicate().isEmpty() && i.columns().size() == 1
                && column.equalsIgnoreCase(i.columns().get(0)));
    }
}
