package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settlements of one table as a built-in dialect writes them: each kind's statements for one row, and
 * where the database binds rows as data, the same kind's statement over many rows ({@link SettlementGroups}
 * decides which outcomes go together).
 */
final class StatementSettlements implements QueueSettlements {
    private final JooqQueueDialect dialect;
    private final String table;
    /** The statements of each kind the subscription can write; a kind missing here is refused. */
    private final Map<Kind, List<Statement>> single;
    /** Why a kind missing from {@link #single} cannot be written. */
    private final Map<Kind, String> refused;
    /** The statement over many rows of each one-row statement that has one, by identity. */
    private final Map<Statement, Statement> many;
    /** The fewest outcomes of a kind written as one statement over rows ({@link RowsTable#fewestRows()}). */
    private final int fewestRows;

    StatementSettlements(JooqQueueDialect dialect, String table, Map<Kind, List<Statement>> single,
            Map<Kind, String> refused, Map<Statement, Statement> many) {
        this.dialect = dialect;
        this.table = table;
        this.single = new EnumMap<>(single);
        this.refused = new EnumMap<>(Kind.class);
        this.refused.putAll(refused);
        this.many = new IdentityHashMap<>(many);
        // without a table of rows no statement has a form over rows, and every outcome goes one by one
        this.fewestRows = dialect.rowsTable() == null ? Integer.MAX_VALUE : dialect.rowsTable().fewestRows();
    }

    @Override
    public List<Statement> statements(Kind kind) {
        List<Statement> statements = single.get(kind);
        if (statements == null) {
            throw new DialectException(dialect.name(), table, refused.getOrDefault(kind,
                    "its subscription declares no " + kind.name().toLowerCase().replace('_', ' ')));
        }
        return statements;
    }

    @Override
    public java.util.Set<Kind> kinds() {
        return java.util.Collections.unmodifiableSet(single.keySet());
    }

    @Override
    public List<Statement> statements() {
        List<Statement> all = new ArrayList<>();
        single.values().forEach(all::addAll);
        for (List<Statement> statements : single.values()) {
            for (Statement s : statements) {
                Statement m = many.get(s);
                if (m != null) {
                    all.add(m);
                }
            }
        }
        return all;
    }

    @Override
    public Optional<Statement> write(Connection c, Outcome outcome) throws Failure {
        for (Statement statement : statements(outcome.kind())) {
            int changed;
            try {
                changed = Jdbc.update(c, statement, outcome.binds(), dialect);
            } catch (SQLException e) {
                throw new Failure(statement, List.of(0), List.of(0), e);
            }
            if (changed == 0) {
                return Optional.of(statement);
            }
        }
        return Optional.empty();
    }

    @Override
    public Map<Integer, Statement> writeAll(Connection c, List<Outcome> outcomes, boolean token) throws Failure {
        if (outcomes.size() == 1) {
            Optional<Statement> unchanged = write(c, outcomes.get(0));
            return token && unchanged.isPresent() ? Map.of(0, unchanged.get()) : Map.of();
        }
        // made at the first lost lease: most writes lose none
        Map<Integer, Statement> lost = Map.of();
        int stages = 0;
        for (Outcome o : outcomes) {
            stages = Math.max(stages, statements(o.kind()).size());
        }
        for (int stage = 0; stage < stages; stage++) {
            List<Integer> live = new ArrayList<>(outcomes.size());
            for (int i = 0; i < outcomes.size(); i++) {
                if (!lost.containsKey(i)) {
                    live.add(i);
                }
            }
            for (SettlementGroups.Group g : SettlementGroups.group(outcomes, live, stage, this::statements, this::many,
                    fewestRows)) {
                if (g.byRows()) {
                    writeByRows(c, outcomes, g, token);
                    continue;
                }
                int[] changed = writeEach(c, outcomes, g);
                for (int i = 0; i < changed.length; i++) {
                    if (token && changed[i] == 0) {
                        if (lost.isEmpty()) {
                            lost = new HashMap<>();
                        }
                        lost.put(g.outcomes().get(i), g.statement());
                    }
                }
            }
        }
        return lost;
    }

    /** {@code g}'s statement once over the rows of its outcomes; with {@code token}, each must change its row. */
    private void writeByRows(Connection c, List<Outcome> outcomes, SettlementGroups.Group g, boolean token)
            throws Failure {
        Binds binds = g.binds(outcomes).rowsEncoding(this::rowsValue);
        int changed;
        try {
            changed = Jdbc.update(c, g.many(), binds, dialect);
        } catch (SQLException e) {
            throw new Failure(g.many(), g.outcomes(), g.outcomes(), e);
        }
        if (token && changed < g.outcomes().size()) {
            throw new Failure(g.many(), g.outcomes(), changed);
        }
    }

    /** {@code g}'s statement once per outcome, as one JDBC batch where there are several; rows changed by each. */
    private int[] writeEach(Connection c, List<Outcome> outcomes, SettlementGroups.Group g) throws Failure {
        List<Binds> binds = new ArrayList<>(g.outcomes().size());
        for (int i : g.outcomes()) {
            binds.add(outcomes.get(i).binds());
        }
        try {
            return Jdbc.updateEach(c, g.statement(), binds, dialect);
        } catch (BatchUpdateException e) {
            int[] done = e.getUpdateCounts();
            List<Integer> culprit = done != null && done.length < binds.size()
                    ? List.of(g.outcomes().get(done.length)) : List.of();
            throw new Failure(g.statement(), g.outcomes(), culprit, e);
        } catch (SQLException e) {
            throw new Failure(g.statement(), g.outcomes(), g.outcomes(), e);
        }
    }

    /** {@code one} over many rows, or null where the database writes its rows one execution each. */
    Statement many(Statement one) {
        return many.get(one);
    }

    private Object rowsValue(Param param, List<Binds> rows) {
        return dialect.rowsTable().value(param, rows, dialect);
    }
}
