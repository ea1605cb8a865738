package dev.tablequeue.maven.checker;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jooq.Field;

/**
 * Whether an index serves a binding's claim. A claim selects the rows of its group that are due and not
 * processed, in claim order (priority, retry_after, id): an index serves it when it starts with the columns the
 * claim compares for equality (the group, and processed_at, which the claim reads as NULL) and goes on in claim
 * order. Without processed_at (or a partial index WHERE processed_at IS NULL) such an index still holds every
 * acknowledged row, and a claim steps over all of them before the first open one: both grow slow as the table
 * grows, so both are warned of.
 */
final class ClaimIndex {
    private ClaimIndex() {}

    static void check(RoleBinding<?> binding, TableShape table, Findings.Where where, Findings findings) {
        List<String> equal = new ArrayList<>();
        binding.column(Role.GROUP).ifPresent(g -> equal.add(g.getName()));
        Optional<String> processed = binding.column(Role.PROCESSED_AT).map(Field::getName);
        List<String> order = new ArrayList<>();
        binding.column(Role.PRIORITY).ifPresent(p -> order.add(p.getName()));
        binding.column(Role.RETRY_AFTER).ifPresent(r -> order.add(r.getName()));
        order.add(binding.id().getName());
        if (equal.isEmpty() && processed.isEmpty() && order.size() == 1 && table.isKey(order.get(0))) {
            return; // claimed in id order alone: the key serves it
        }
        List<TableShape.Index> indexes = new ArrayList<>(table.indexes());
        if (!table.primaryKey().isEmpty()) {
            indexes.add(new TableShape.Index("primary key", true, table.primaryKey(), Optional.empty()));
        }
        Optional<TableShape.Index> holding = Optional.empty();
        for (TableShape.Index index : indexes) {
            boolean skipsProcessed = processed.isEmpty() || index.onlyWhereNull(processed.get());
            List<String> leading = new ArrayList<>(equal);
            processed.filter(p -> !skipsProcessed).ifPresent(leading::add);
            if (serves(index.columns(), leading, order)) {
                return;
            }
            if (holding.isEmpty() && processed.isPresent() && serves(index.columns(), equal, order)) {
                holding = Optional.of(index);
            }
        }
        if (holding.isPresent()) {
            findings.warning(where, "index " + holding.get().name() + " " + holding.get().columns() + " serves the"
                    + " claim but holds every acknowledged row, which a claim steps over before the first open one:"
                    + " put " + processed.get() + " after the group (or make the index partial, WHERE "
                    + processed.get() + " IS NULL)");
            return;
        }
        List<String> wanted = new ArrayList<>(equal);
        processed.ifPresent(wanted::add);
        wanted.addAll(order);
        findings.warning(where, "no index serves the claim (its group filter and claim order), so each claim reads"
                + " the table: add an index on " + wanted);
    }

    /**
     * Whether {@code columns} start with {@code leading} (in any order) and go on with the claim {@code order}
     * (its closing id may be left out: it only breaks ties, and InnoDB appends the key to every index).
     */
    static boolean serves(List<String> columns, List<String> leading, List<String> order) {
        Set<String> want = lower(leading);
        int i = 0;
        Set<String> seen = new HashSet<>();
        while (i < columns.size() && columns.get(i) != null && want.contains(lower(columns.get(i)))) {
            seen.add(lower(columns.get(i)));
            i++;
        }
        if (!seen.equals(want)) {
            return false;
        }
        List<String> rest = order.size() > 1 ? order.subList(0, order.size() - 1) : order;
        for (int j = 0; j < rest.size(); j++) {
            if (i + j >= columns.size() || columns.get(i + j) == null
                    || !lower(columns.get(i + j)).equals(lower(rest.get(j)))) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> lower(List<String> names) {
        Set<String> set = new HashSet<>();
        names.forEach(n -> set.add(lower(n)));
        return set;
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
