package dev.tablequeue.examples;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.tablequeue.binding.RoleBinding;
import java.util.List;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Probes for a defect of the toolkit that these examples trip over, so a test that meets one skips with
 * the reason instead of failing, and runs as soon as the toolkit is fixed. Each probe reproduces the
 * defect on a table of its own, never on the examples.
 */
final class KnownToolkitDefects {
    private KnownToolkitDefects() {}

    /**
     * Skips when RoleBinding counts a column whose default is {@code NULL} as filled by the database and
     * one of {@code columns} has such a default. MariaDB reports {@code DEFAULT NULL} for every nullable
     * column and jOOQ generates it, so a MariaDB binding leaves its nullable columns out of the insert.
     */
    static void assumeNullDefaultsAreWritten(List<? extends Field<?>> columns) {
        boolean affected = columns.stream().anyMatch(c -> nullDefault(c.getDataType()));
        assumeFalse(affected && nullDefaultCountsAsGenerated(),
                "toolkit defect: RoleBinding.isGenerated(..) is true for a column whose default is NULL"
                        + " (MariaDB's implicit DEFAULT NULL), so insertColumns() leaves it out");
    }

    private static boolean nullDefaultCountsAsGenerated() {
        Field<String> note = DSL.field(DSL.name("note"),
                SQLDataType.VARCHAR(191).defaultValue(DSL.field(DSL.raw("NULL"), SQLDataType.VARCHAR)));
        RoleBinding<?> probe = RoleBinding.of(DSL.table(DSL.name("probe")), DSL.field(DSL.name("id")))
                .group(note)
                .build();
        return probe.isGenerated(note);
    }

    private static boolean nullDefault(DataType<?> type) {
        return type.defaulted() && "null".equalsIgnoreCase(DSL.using(org.jooq.SQLDialect.DEFAULT)
                .renderInlined(type.default_()).trim());
    }
}
