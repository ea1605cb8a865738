package dev.tablequeue.dialect;

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
 * Any number of them go as one statement, from the dialect's fewest on ({@link RowsTable#fewestRows()}). The
 * others (fewer outcomes of a kind than that, a statement the dialect has no many-row form of, an id twice)
 * are written one execution per row, as one JDBC batch per statement.
 * Pure: it runs no statement, and is tested without a database.
 */
final class SettlementGroups {

    private SettlementGroups() {}

    /**
     * Outcomes (by index) written by one statement: {@code many} over all their rows where there is one (as
     * many outcomes as the dialect's fewest or more), else {@code statement} once each.
     */
    record Group(Statement statement, List<Integer> outcomes, Statement many) {
        /** Whether the group is written by one statement over its rows. */
        boolean byRows() {
            return many != null;
        }

        /** What {@link #many} binds: the values bound once, as the first outcome has them, and every row's. */
        Binds binds(List<QueueSettlements.Outcome> all) {
            List<Binds> rows = new ArrayList<>(outcomes.size());
            for (int i : outcomes) {
                rows.add(all.get(i).binds());
            }
            return all.get(outcomes.get(0)).binds().copy().rows(rows);
        }
    }

    /**
     * Groups the outcomes of {@code live} (indexes into {@code all}) that have a statement at {@code stage}
     * ({@code run} gives each kind's statements), by that statement and the values its many-row form
     * ({@code manyOf}, null where none) binds once; a group of fewer than {@code fewest} outcomes is written one
     * execution per row. Groups come in the order of their first outcome, those over many rows before the rows
     * written one by one.
     */
    static List<Group> group(List<QueueSettlements.Outcome> all, List<Integer> live, int stage,
            Function<QueueSettlements.Kind, List<Statement>> run, Function<Statement, Statement> manyOf,
            int fewest) {
        if (live.size() < fewest) {
            return oneByOne(all, live, stage, run);
        }
        Map<List<Object>, List<Integer>> together = new LinkedHashMap<>();
        Map<List<Object>, Set<Object>> idsOf = new LinkedHashMap<>();
        Map<Same, List<Integer>> each = new LinkedHashMap<>();
        for (int i : live) {
            QueueSettlements.Outcome o = all.get(i);
            List<Statement> statements = run.apply(o.kind());
            if (statements.size() <= stage) {
                continue;
            }
            Statement statement = statements.get(stage);
            Statement many = manyOf.apply(statement);
            if (many == null) {
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(i);
                continue;
            }
            List<Object> key = key(statement, many, o.binds());
            if (!idsOf.computeIfAbsent(key, k -> new HashSet<>()).add(idOf(o.binds()))) {
                // the same row twice (a delivery that outlived its lease, and the row's next one)
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).add(i);
                continue;
            }
            together.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        List<Group> groups = new ArrayList<>();
        for (Map.Entry<List<Object>, List<Integer>> e : together.entrySet()) {
            Statement statement = ((Same) e.getKey().get(0)).statement();
            List<Integer> rows = e.getValue();
            if (rows.size() < fewest) {
                each.computeIfAbsent(new Same(statement), s -> new ArrayList<>()).addAll(rows);
            } else {
                groups.add(new Group(statement, List.copyOf(rows), manyOf.apply(statement)));
            }
        }
        for (Map.Entry<Same, List<Integer>> e : each.entrySet()) {
            List<Integer> rows = e.getValue();
            rows.sort(null); // in the order of the outcomes, whichever way each came here
            groups.add(new Group(e.getKey().statement(), List.copyOf(rows), null));
        }
        return groups;
    }

    /**
     * Fewer outcomes than the fewest any statement over rows takes: each is written one execution per row, the
     * outcomes of a statement together, in the order of their first outcome. The common settlement of a claim
     * of few rows, so it builds no key of the values a statement over rows would bind.
     */
    private static List<Group> oneByOne(List<QueueSettlements.Outcome> all, List<Integer> live, int stage,
            Function<QueueSettlements.Kind, List<Statement>> run) {
        List<Statement> statements = new ArrayList<>(2);
        List<List<Integer>> rows = new ArrayList<>(2);
        for (int i : live) {
            List<Statement> staged = run.apply(all.get(i).kind());
            if (staged.size() <= stage) {
                continue;
            }
            Statement statement = staged.get(stage);
            int at = indexOf(statements, statement);
            if (at < 0) {
                statements.add(statement);
                rows.add(new ArrayList<>(live.size()));
                at = statements.size() - 1;
            }
            rows.get(at).add(i);
        }
        List<Group> groups = new ArrayList<>(statements.size());
        for (int g = 0; g < statements.size(); g++) {
            List<Integer> outcomes = rows.get(g);
            outcomes.sort(null);
            groups.add(new Group(statements.get(g), List.copyOf(outcomes), null));
        }
        return groups;
    }

    /** Where {@code statement} itself (by identity) stands in {@code statements}, or -1. */
    private static int indexOf(List<Statement> statements, Statement statement) {
        for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i) == statement) {
                return i;
            }
        }
        return -1;
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

    /** A statement as a key by identity: the statements of a table are built once, and jOOQ's hash renders. */
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
