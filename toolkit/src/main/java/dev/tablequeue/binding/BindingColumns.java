package dev.tablequeue.binding;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.Table;

/** The column lists a binding derives: what a claim of whole rows reads, and what an insert writes. */
final class BindingColumns {
    private BindingColumns() {}

    /** See {@link RoleBinding#lastErrorLength()}; {@code column} is null where the table keeps no last error. */
    static int lastErrorLength(Table<?> table, Field<?> column) {
        if (column == null) {
            return 0;
        }
        int declared = BindingDraft.declaredLength(table, column);
        return declared > 0 ? Math.min(declared, RoleBinding.LAST_ERROR_LONGEST) : RoleBinding.LAST_ERROR_LONGEST;
    }

    /** See {@link RoleBinding#rowColumns()}. */
    static List<Field<?>> rowColumns(Table<?> table, Map<Role, Field<?>> roles, List<Field<?>> headerFields,
            List<Field<?>> data) {
        Field<?>[] declared = table.fields();
        if (declared.length > 0) {
            return List.of(declared);
        }
        Map<String, Field<?>> columns = new LinkedHashMap<>();
        roles.values().forEach(f -> columns.putIfAbsent(f.getName(), f));
        headerFields.forEach(f -> columns.putIfAbsent(f.getName(), f));
        data.forEach(f -> columns.putIfAbsent(f.getName(), f));
        return List.copyOf(columns.values());
    }

    /** See {@link RoleBinding#insertColumns()}. */
    static List<Field<?>> insertColumns(RoleBinding<?> binding, Map<Role, Field<?>> roles,
            List<Field<?>> headerFields, List<Field<?>> data) {
        List<Field<?>> columns = new ArrayList<>();
        for (Map.Entry<Role, Field<?>> e : roles.entrySet()) {
            Role role = e.getKey();
            if (role == Role.PROCESSED_AT || role == Role.LEASE || role == Role.LAST_ERROR) {
                continue;
            }
            if (!binding.isGenerated(e.getValue())) {
                columns.add(e.getValue());
            }
        }
        for (Field<?> f : headerFields) {
            if (!binding.isGenerated(f)) {
                columns.add(f);
            }
        }
        for (Field<?> f : data) {
            if (!binding.isGenerated(f)) {
                columns.add(f);
            }
        }
        return List.copyOf(columns);
    }
}
