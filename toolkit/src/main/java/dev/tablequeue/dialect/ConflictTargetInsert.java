package dev.tablequeue.dialect;

import static dev.tablequeue.dialect.JooqPieces.table;
import static dev.tablequeue.dialect.JooqPieces.typed;
import static dev.tablequeue.dialect.JooqPieces.unqualified;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueInserts.Written;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;

/**
 * The unique publish of PostgreSQL and SQLite: {@code INSERT .. ON CONFLICT (k) [WHERE processed_at IS NULL] DO
 * NOTHING RETURNING id}. Naming the conflict target keeps every other unique constraint loud (a primary key the
 * message gives fails the insert); the predicate names the partial index of a key held by pending rows, which
 * the database's inference needs. {@code RETURNING} returns the row where it was written and nothing where the
 * key was taken; only then does a second statement read the holder's id.
 *
 * <p>On PostgreSQL a second transaction inserting a key that a first one has written and not committed waits for
 * it: it writes its row where the first rolls back, and does nothing where it commits. The holder may be
 * acknowledged or deleted between the insert and the read (no lock is taken on it, so that a publish never
 * waits for a handler that holds the row): the insert is then tried again, up to {@link #TRIES} times.
 */
final class ConflictTargetInsert implements UniqueInsert {
    static final int TRIES = 5;

    /** How the database says, for {@code insert}, that no unique index matches its conflict target. */
    interface Inference {
        /** Runs the check that infers the index; true where the database found none. */
        boolean noIndex(Connection c, Statement insert) throws SQLException;
    }

    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final Statement insert;
    private final Statement holder;
    /** The insert whose conflict target is the key over every row: for the check of a key held while pending. */
    private final Statement everyRow;
    private final Inference inference;

    ConflictTargetInsert(JooqQueueDialect dialect, RoleBinding<?> b, Inference inference) {
        this.dialect = dialect;
        this.binding = b;
        this.inference = inference;
        Field<?> key = b.column(Role.UNIQUE_KEY).orElseThrow();
        this.insert = insert(dialect, b, key, b.uniqueWhilePending());
        this.everyRow = b.uniqueWhilePending() ? insert(dialect, b, key, false) : insert;
        this.holder = keyHolder(dialect.writer(), b, key, false);
    }

    private static Statement insert(JooqQueueDialect dialect, RoleBinding<?> b, Field<?> key, boolean pending) {
        StatementWriter w = dialect.writer();
        String target = " on conflict (" + w.render(unqualified(key)) + ")" + (pending ? " where " + w.render(pending(b))
                : "");
        return w.fromNamed("unique insert", w.render(dialect.insertValues(w, b)) + target + " do nothing returning "
                + w.render(unqualified(b.id())));
    }

    /** {@code processed_at IS NULL}: the rows that hold a key declared {@code uniqueKeyWhilePending(..)}. */
    static Condition pending(RoleBinding<?> b) {
        return unqualified(b.column(Role.PROCESSED_AT).orElseThrow()).isNull();
    }

    /**
     * {@code SELECT id FROM t WHERE k = ? [AND processed_at IS NULL]}, the key bound as the insert's value of the key
     * column, so the row's own binds serve both; {@code locking} reads the newest version (MySQL's {@code FOR
     * UPDATE}, where a plain read sees the transaction's snapshot).
     */
    static Statement keyHolder(StatementWriter w, RoleBinding<?> b, Field<?> key, boolean locking) {
        int at = b.insertColumns().stream().map(Field::getName).toList().indexOf(key.getName());
        Condition holds = typed(key).eq(w.bind(Param.at(Param.Kind.VALUE, key, at), typed(key)));
        if (b.uniqueWhilePending()) {
            holds = holds.and(pending(b));
        }
        var select = w.dsl().select(unqualified(b.id())).from(table(b)).where(holds);
        return w.statement("unique key holder", locking ? select.forUpdate() : select);
    }

    @Override
    public List<Statement> statements() {
        return List.of(insert, holder);
    }

    @Override
    public Written insert(Connection c, List<Object> values) throws SQLException {
        Binds row = new Binds().values(values);
        for (int i = 0; i < TRIES; i++) {
            Object id = Jdbc.query(c, insert, row, dialect, rs -> rs.next() ? rs.getObject(1) : null);
            if (id != null) {
                return new Written(true, id);
            }
            Object held = Jdbc.query(c, holder, row, dialect, rs -> rs.next() ? rs.getObject(1) : null);
            if (held != null) {
                return new Written(false, held);
            }
        }
        throw new SQLException("the unique insert into \"" + binding.tableName() + "\" found its key taken " + TRIES
                + " times, and its holder gone each time it read it [SQL: " + insert.sql() + "]");
    }

    @Override
    public Optional<String> indexProblem(Connection c) throws SQLException {
        boolean none = inference.noIndex(c, insert);
        String key = binding.column(Role.UNIQUE_KEY).orElseThrow().getName();
        if (binding.uniqueWhilePending()) {
            // an index over every row serves the pending target too, and would keep an acknowledged row's key taken
            boolean overEveryRow = !none && !inference.noIndex(c, everyRow);
            if (!none && !overEveryRow) {
                return Optional.empty();
            }
            String processed = binding.column(Role.PROCESSED_AT).orElseThrow().getName();
            return Optional.of("table \"" + binding.tableName() + "\" has no unique index on column \"" + key
                    + "\" for its pending rows alone, which uniqueKeyWhilePending(..) needs" + (overEveryRow
                    ? " (its unique index on \"" + key + "\" holds the key in every row, acknowledged ones too)" : "")
                    + ": migrate CREATE UNIQUE INDEX .. ON " + binding.table().getName() + " (" + key + ") WHERE "
                    + processed + " IS NULL");
        }
        if (!none) {
            return Optional.empty();
        }
        return Optional.of("table \"" + binding.tableName() + "\" has no unique index on column \"" + key
                + "\" alone (without a WHERE), which uniqueKey(..) needs: migrate CREATE UNIQUE INDEX .. ON "
                + binding.table().getName() + " (" + key + "), or declare uniqueKeyWhilePending(..) for a partial"
                + " index on pending rows");
    }

    /**
     * PostgreSQL infers the index when it plans: {@code EXPLAIN} the insert, its values NULL. In a transaction (the
     * caller's, at a first publish) under a savepoint, since a failed statement would abort the transaction.
     */
    static boolean explainFindsNone(Connection c, Statement insert) throws SQLException {
        java.sql.Savepoint before = c.getAutoCommit() ? null : c.setSavepoint();
        try (var ps = c.prepareStatement("explain " + insert.sql())) {
            for (int i = 1; i <= insert.params().size(); i++) {
                ps.setObject(i, null);
            }
            ps.execute();
            return false;
        } catch (SQLException e) {
            if (before != null) {
                c.rollback(before);
                before = null;
            }
            if ("42P10".equals(e.getSQLState())) {
                return true;
            }
            throw e;
        } finally {
            if (before != null) {
                c.releaseSavepoint(before);
            }
        }
    }

    /** SQLite infers the index when it compiles the insert. */
    static boolean compileFindsNone(Connection c, Statement insert) throws SQLException {
        try (var ps = c.prepareStatement(insert.sql())) {
            return false;
        } catch (SQLException e) {
            if (String.valueOf(e.getMessage()).contains("does not match any PRIMARY KEY or UNIQUE constraint")) {
                return true;
            }
            throw e;
        }
    }
}
