package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.RowFetch;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The advisory claims of the built-in dialects ({@link QueueKeys}): each dialect gives the statements its server
 * runs; the steps are the same on every database.
 */
final class StatementKeys implements QueueKeys {
    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final ClaimTexts candidates;
    private final Statement take;
    /** The fetch of a taken row by id, where the take does not return it or the claim is the service's; else null. */
    private final Statement fetchOne;
    /** Null where the dialect has none, or the service keeps the keys or reads the rows. */
    private final Statement lockTake;
    /** Null where the dialect has none, or the service keeps the keys or reads the rows. */
    private final Statement walk;

    StatementKeys(QueueDialect dialect, RoleBinding<?> binding, ClaimTexts candidates, Statement take,
            Statement fetchOne, Statement lockTake, Statement walk) {
        this.dialect = dialect;
        this.binding = binding;
        this.candidates = candidates;
        this.take = take;
        this.fetchOne = fetchOne;
        this.lockTake = lockTake;
        this.walk = walk;
    }

    @Override
    public List<Statement> statements() {
        List<Statement> all = new ArrayList<>(5);
        all.add(candidates.bound());
        all.add(take);
        for (Statement s : new Statement[] {lockTake, walk, fetchOne}) {
            if (s != null) {
                all.add(s);
            }
        }
        return List.copyOf(all);
    }

    @Override
    public List<Candidate> candidates(Connection c, String group, Instant now, int limit) throws SQLException {
        Binds binds = new Binds().group(group).now(now).limit(limit);
        return Jdbc.query(c, candidates.at(limit), binds, dialect, rs -> {
            List<Candidate> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new Candidate(rs.getObject(1), rs.getString(2)));
            }
            return list;
        });
    }

    @Override
    public <R> List<R> take(Connection c, String group, Instant now, Object id, ClaimedRows<R> rows)
            throws SQLException {
        Binds binds = new Binds().id(id).group(group).now(now);
        if (fetchOne == null) {
            return Jdbc.query(c, take, binds, dialect, rows::readAll);
        }
        if (Jdbc.update(c, take, binds, dialect) == 0) {
            return List.of();
        }
        return fetch(c, id, rows);
    }

    @Override
    public boolean locksAndTakes() {
        return lockTake != null;
    }

    @Override
    public <R> List<R> lockAndTake(Connection c, String group, Instant now, Candidate candidate,
            ClaimedRows<R> rows) throws SQLException {
        Binds binds = new Binds().key(candidate.key()).id(candidate.id()).group(group).now(now);
        return Jdbc.query(c, required(lockTake, "lock and take"), binds, dialect, rows::readAll);
    }

    @Override
    public boolean walks() {
        return walk != null;
    }

    @Override
    public <R> Walked<R> walk(Connection c, String group, Instant now, ClaimedRows<R> rows) throws SQLException {
        Statement w = required(walk, "walk");
        return Jdbc.query(c, w, new Binds().group(group).now(now), dialect, rs -> walked(w, rs, rows));
    }

    @Override
    public <R> SettledWalk<R> settleAndWalk(Connection c, Statement statement, Binds binds, String key, String group,
            Instant now, ClaimedRows<R> rows) throws SQLException {
        Binds all = binds.copy().key(key).group(group).now(now);
        return Jdbc.query(c, statement, all, dialect, rs -> {
            Walked<R> walked = walked(statement, rs, rows); // moves to the statement's one row
            return new SettledWalk<>(rs.getBoolean("tq_unlocked"), walked);
        });
    }

    @Override
    public <R> List<R> fetch(Connection c, Object id, ClaimedRows<R> rows) throws SQLException {
        return RowFetch.fetch(c, dialect, binding, fetchOne, id, rows);
    }

    /** The row a walk returns: the row it took, or NULLs, and its flags; a walk that returns no row fails. */
    private <R> Walked<R> walked(Statement statement, ResultSet rs, ClaimedRows<R> rows) throws SQLException {
        if (!rs.next()) {
            throw new SQLException("the " + statement.purpose() + " of \"" + binding.tableName()
                    + "\" returned no row (it returns one, with or without a row taken)");
        }
        String key = rs.getString("tq_key");
        return new Walked<>(key == null ? null : rows.read(rs), key, rs.getBoolean("tq_locked"),
                rs.getBoolean("tq_cut"));
    }

    private Statement required(Statement statement, String step) {
        if (statement == null) {
            throw new DialectException(dialect.name(), binding.tableName(), "the advisory claim of this table has no "
                    + step + " in one statement here");
        }
        return statement;
    }
}
