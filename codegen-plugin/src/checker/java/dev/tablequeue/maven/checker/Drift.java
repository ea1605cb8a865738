package dev.tablequeue.maven.checker;

import java.util.Set;
import org.jooq.Field;
import org.jooq.Table;

/**
 * jOOQ drift: what the generated class of a binding's table declares (its columns, their types and
 * nullability) against the migrated table. A difference means the classes were generated from another
 * migration state than the one the build migrates, and the service's code would meet another schema.
 */
final class Drift {
    private Drift() {}

    /** Reports each difference; {@code reported} holds the columns already reported missing (by their roles). */
    static void check(Table<?> declared, TableShape migrated, SchemaDialect schema, Findings.Where where,
            Findings findings, Set<String> reported) {
        for (Field<?> field : declared.fields()) {
            String name = field.getName();
            Findings.Where at = where.role("jOOQ drift", name);
            TableShape.Column column = migrated.column(name).orElse(null);
            if (column == null) {
                if (!reported.contains(name)) {
                    findings.violation(at, "the jOOQ class " + className(declared) + " declares this column, and the"
                            + " migrated table has none: the classes were generated from another migration state");
                }
                continue;
            }
            TypeFamily family = TypeFamily.of(field.getDataType());
            if (!schema.matches(family, column.family())) {
                findings.violation(at, "the jOOQ class declares " + family.description() + " ("
                        + field.getDataType().getSQLDataType().getTypeName() + "), and the migrated column is "
                        + column.typeName() + ": the classes were generated from another migration state");
            }
            boolean nullable = field.getDataType().nullable();
            if (nullable != column.nullable()) {
                findings.violation(at, "the jOOQ class declares the column " + (nullable ? "nullable" : "NOT NULL")
                        + ", and the migrated column is " + (column.nullable() ? "nullable" : "NOT NULL")
                        + ": the classes were generated from another migration state");
            }
        }
    }

    private static String className(Table<?> table) {
        return table.getClass().getName().replace('$', '.');
    }
}
