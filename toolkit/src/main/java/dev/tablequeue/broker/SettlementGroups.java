package dev.tablequeue.broker;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which outcomes of a batch one statement can write together: those whose statement at a stage is the same
 * and binds the same values but for the row's id (acknowledgements planned at one instant, the rows of one
 * claim holding one lease expiry), in chunks of at most {@link #MAX_IDS} rows, each written as one statement
 * over an IN list of {@link #bucket} ids. The others (an outcome alone of its kind, a last error of its own,
 * a statement the dialect has no many-row form of, an id twice) are written one execution per row, as one
 * JDBC batch per statement.
 *
 * <p>An IN list is padded to a power of two by repeating its last id, so a subscription builds at most seven
 * forms of each statement, whatever its batch sizes; 128 ids stay far under SQLite's and MySQL's limits on
 * bind variables. Pure: it runs no statement, and is tested without a database.
 */
final class SettlementGroups {
    /** The most rows one statement writes. */
    static final int MAX_IDS = 128;

    private SettlementGroups() {}

    /**
     * Outcomes written by one statement: over their ids where {@code byIds} (a chunk of two or more), else
     * one execution each.
     */
    record Group(Statement statement, List<Settlement.Write> writes, boolean byIds) {
        /** The ids the statement's IN list binds, the last repeated up to {@link #bucket} of their count. */
        List<Object> paddedIds() {
            List<Object> ids = new ArrayList<>(bucket(writes.size()));
            for (Settlement.Write w : writes) {
                ids.add(idOf(w.plan().binds()));
            }
            while (ids.size() < bucket(writes.size())) {
                ids.add(ids.get(ids.size() - 1));
            }
            return ids;
        }
    }

    /**
     * Groups the outcomes of {@code writes} that have a statement at {@code stage}, by that statement and the
     * values it binds; {@code byIds} tells the statements the dialect writes over many ids. Groups come in
     * the order of their first outcome, the chunks over ids before the rows written one by one.
     */
    static List<Group> group(List<Settlement.Write> writes, int stage, Predicate<Statement> byIds) {
        Map<List<Object>, List<Settlement.Write>> together = new LinkedHashMap<>();
        Map<List<Object>, Set<Object>> idsOf = new LinkedHashMap<>();
        Map<Same, List<Settlement.Write>> each = new LinkedHashMap<>();
        for (Settlement.Write w : writes) {
            List<Statement> run = w.plan().run();
            if (run.size() <= stage) {
                continue;
            }
            Statement statement = run.get(stage);
            if (!byIds.test(statement)) {
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(w);
                continue;
            }
            List<Object> key = key(statement, w.plan().binds());
            if (!idsOf.computeIfAbsent(key, k -> new HashSet<>()).add(idOf(w.plan().binds()))) {
                // the same row twice (a delivery that outlived its lease, and the row's next one)
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(w);
                continue;
            }
            together.computeIfAbsent(key, k -> new ArrayList<>()).add(w);
        }
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Settlement.Write>> e : together.entrySet()) {
            Statement statement = ((Same) e.getKey().get(0)).statement();
            List<Settlement.Write> all = e.getValue();
            for (int from = 0; from < all.size(); from += MAX_IDS) {
                List<Settlement.Write> chunk = all.subList(from, Math.min(all.size(), from + MAX_IDS));
                if (chunk.size() == 1) {
                    each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(chunk.get(0));
                } else {
                    groups.add(new Group(statement, List.copyOf(chunk), true));
                }
            }
        }
        each.forEach((same, rows) -> groups.add(new Group(same.statement(), List.copyOf(rows), false)));
        return groups;
    }

    /** The number of ids an IN list of {@code n} rows binds: the power of two at or above it. */
    static int bucket(int n) {
        if (n < 1 || n > MAX_IDS) {
            throw new IllegalArgumentException("a statement writes 1 to " + MAX_IDS + " rows, not " + n);
        }
        return Integer.highestOneBit(n) == n ? n : Integer.highestOneBit(n) << 1;
    }

    /** The statement, then every value it binds but the id: outcomes with one key are written together. */
    private static List<Object> key(Statement statement, Binds binds) {
        Object[] key = new Object[statement.params().size() + 1];
        key[0] = new Same(statement);
        int i = 1;
        for (Param p : statement.params()) {
            key[i++] = p.kind() == Param.Kind.ID ? null : binds.valueSet(p);
        }
        return Arrays.asList(key);
    }

    /** A statement as a key by identity: the statements of a subscription are built once, and jOOQ's hash renders. */
    private record Same(Statement statement) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Same other && other.statement == statement;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(statement);
        }
    }

    private static Object idOf(Binds binds) {
        return binds.valueSet(Param.of(Param.Kind.ID));
    }
}
