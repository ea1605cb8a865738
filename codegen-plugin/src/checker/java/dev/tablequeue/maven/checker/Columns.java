package dev.tablequeue.maven.checker;

import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;
import org.jooq.Table;

/**
 * What every check asks of a migrated table, whatever binding names it: is the table there, is a column there,
 * can the column carry what a role writes into it. A column found missing is reported once and remembered, so
 * the drift check does not report it again.
 */
final class Columns {
    private final Target target;
    private final Findings findings;
    private final Set<String> missing;

    Columns(Target target, Findings findings, Set<String> missing) {
        this.target = target;
        this.findings = findings;
        this.missing = missing;
    }

    /** The migrated shape of {@code table}, in its schema where the jOOQ class names one. */
    Optional<TableShape> shape(Table<?> table) throws SQLException {
        String schema = table.getSchema() == null || table.getSchema().getName().isEmpty()
                ? null : table.getSchema().getName();
        return target.schema().table(schema, table.getName());
    }

    /** The migrated column {@code name}, reporting it missing where the table has none. */
    Optional<TableShape.Column> column(TableShape table, String name, Findings.Where at) {
        Optional<TableShape.Column> column = table.column(name);
        if (column.isEmpty()) {
            missing.add(name);
            findings.violation(at, "the migrated table has no such column");
        }
        return column;
    }

    /**
     * Checks that {@code column}, playing {@code setting}, has a type of {@code allowed} (any, where null) and,
     * where {@code mustTakeNull}, takes NULL.
     */
    void carries(TableShape.Column column, String setting, Set<TypeFamily> allowed, boolean mustTakeNull,
            Findings.Where at) {
        if (allowed != null && !allowed.contains(column.family())) {
            findings.violation(at, setting + " takes a column of " + RoleTypes.describe(allowed) + ", and this one is "
                    + column.typeName());
        }
        if (mustTakeNull && !column.nullable()) {
            findings.violation(at, "the column is NOT NULL, and " + setting + " needs NULL: a new row is written"
                    + " without it");
        }
    }
}
