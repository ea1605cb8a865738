package dev.tablequeue.broker;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Which outcomes of a batch one statement can write together: those whose statement at a stage is the same
 * and has a form over many rows, and that bind the same values but those each row has of its own (its id,
 * its times, its lease token, its last error: the many-row form reads these from the rows it binds as data).
 * Any number of them go as one statement. The others (an outcome alone of its kind, a statement the dialect
 * has no many-row form of, an id twice) are written one execution per row, as one JDBC batch per statement.
 * Pure: it runs no statement, and is tested without a database.
 */
final class SettlementGroups {

    private SettlementGroups() {}

    /**
     * Outcomes written by one statement: {@code many} over all their rows where there is one (two or more
     * outcomes), else {@code statement} once each.
     */
    record Group(Statement statement, List<Settlement.Write> writes, Statement many) {
        /** Whether the group is written by one statement over its rows. */
        boolean byRows() {
            return many != null;
        }

        /** What {@link #many} binds: the values bound once, as the first outcome has them, and every row's. */
        Binds binds() {
            List<Binds> rows = new ArrayList<>(writes.size());
            for (Settlement.Write w : writes) {
                rows.add(w.plan().binds());
            }
            return writes.get(0).plan().binds().copy().rows(rows);
        }
    }

    /**
     * Groups the outcomes of {@code writes} that have a statement at {@code stage}, by that statement and the
     * values its many-row form ({@code manyOf}, null where none) binds once. Groups come in the order of their
     * first outcome, those over many rows before the rows written one by one.
     */
    static List<Group> group(List<Settlement.Write> writes, int stage, Function<Statement, Statement> manyOf) {
        Map<List<Object>, List<Settlement.Write>> together = new LinkedHashMap<>();
        Map<List<Object>, Set<Object>> idsOf = new LinkedHashMap<>();
        Map<Same, List<Settlement.Write>> each = new LinkedHashMap<>();
        for (Settlement.Write w : writes) {
            List<Statement> run = w.plan().run();
            if (run.size() <= stage) {
                continue;
            }
            Statement statement = run.get(stage);
            Statement many = manyOf.apply(statement);
            if (many == null) {
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(w);
                continue;
            }
            List<Object> key = key(statement, many, w.plan().binds());
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
            if (all.size() == 1) {
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(all.get(0));
            } else {
                groups.add(new Group(statement, List.copyOf(all), manyOf.apply(statement)));
            }
        }
        each.forEach((same, rows) -> groups.add(new Group(same.statement(), List.copyOf(rows), null)));
        return groups;
    }

    /** The statement, then every value its many-row form binds once: outcomes with one key are written together. */
    private static List<Object> key(Statement statement, Statement many, Binds binds) {
        List<Object> key = new ArrayList<>(many.params().size() + 1);
        key.add(new Same(statement));
        for (Param p : many.params()) {
            if (p.kind() != Param.Kind.ROWS) {
                key.add(binds.valueSet(p));
            }
        }
        return key;
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
        Object id = binds.valueSet(Param.of(Param.Kind.ID));
        // byte[] ids (BINARY(16)) compare by content
        return id instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes) : id;
    }
}
