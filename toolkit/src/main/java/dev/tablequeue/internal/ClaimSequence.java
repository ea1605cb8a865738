package dev.tablequeue.internal;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The steps an advisory claim of one queue (a table, and a group where it has one) runs on its connection: the
 * candidates, the take (with its key's lock, or as a walk), and the fetch of a row by id. Which steps run, in
 * which transaction, is the caller's: the runtime's advisory claimer, and the dialect tests, which run these
 * same steps on each database. The row lock and lease forms claim by their dialect's {@link QueueClaims}.
 *
 * @param <R> what a claimed row is read as
 */
public class ClaimSequence<R> {
    /** An advisory candidate: a row's id and its key. */
    public record Candidate(Object id, String key) {}

    /**
     * What an advisory walk came to: the row it took and the key its connection now holds (both null where it
     * took none); whether it locked a key (where it took nothing, the row was settled after the walk began, and
     * a walk made again reads the table after that settlement); whether it gave up after the rows it may try,
     * so that a row of a free key may lie behind them (candidates find it).
     */
    public record Walked<R>(R row, String key, boolean locked, boolean cut) {
        /** Whether it took a row. */
        public boolean took() {
            return row != null;
        }
    }

    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final SubscriptionStatements statements;
    private final String group;
    private final Supplier<Instant> clock;
    private final ClaimedRows<R> rows;

    /**
     * @param statements the statements built for the queue
     * @param group the queue's group, or null where the table has none
     * @param clock the host's "now" of the candidates and the take (the claim is given its own)
     */
    public ClaimSequence(QueueDialect dialect, RoleBinding<?> binding, SubscriptionStatements statements,
            String group, Supplier<Instant> clock, ClaimedRows<R> rows) {
        this.dialect = dialect;
        this.binding = binding;
        this.statements = statements;
        this.group = group;
        this.clock = clock;
        this.rows = rows;
    }

    /**
     * The advisory candidates, in claim order, up to {@code limit}: id and key of due rows, keys held elsewhere
     * left out where the database can see them.
     */
    public List<Candidate> candidates(Connection c, int limit) throws SQLException {
        Binds binds = new Binds().group(group).now(clock.get()).limit(limit);
        return Jdbc.query(c, statements.claim(), binds, dialect, rs -> {
            List<Candidate> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new Candidate(rs.getObject(1), rs.getString(2)));
            }
            return list;
        });
    }

    /** Takes a candidate's row, whose key the connection holds, while it is still claimable; empty where it is not. */
    public List<R> take(Connection c, Object id) throws SQLException {
        Binds binds = new Binds().id(id).group(group).now(clock.get());
        Statement take = statements.take().orElseThrow();
        if (statements.fetchOne().isEmpty()) {
            return Jdbc.query(c, take, binds, dialect, rows::readAll);
        }
        if (Jdbc.update(c, take, binds, dialect) == 0) {
            return List.of();
        }
        return fetch(c, id);
    }

    /** Whether a candidate's key and row are taken in one statement ({@link #lockAndTake}). */
    public boolean locksAndTakes() {
        return statements.lockTake().isPresent();
    }

    /**
     * Takes a candidate's key and its row in one statement: the row, whose key the connection then holds;
     * empty where it took neither (the key is held elsewhere, or the row is no longer claimable).
     */
    public List<R> lockAndTake(Connection c, Candidate candidate) throws SQLException {
        Binds binds = new Binds().key(candidate.key()).id(candidate.id()).group(group).now(clock.get());
        return Jdbc.query(c, statements.lockTake().orElseThrow(), binds, dialect, rows::readAll);
    }

    /** Whether the advisory claim walks the rows and takes one in one statement ({@link #walk}). */
    public boolean walks() {
        return statements.walk().isPresent();
    }

    /**
     * The advisory claim of one row in one statement: the first claimable row in claim order whose key it
     * could lock, taken, with that key, which the connection then holds. Where it took none, the connection
     * holds no key the statement locked.
     */
    public Walked<R> walk(Connection c) throws SQLException {
        Binds binds = new Binds().group(group).now(clock.get());
        Statement walk = statements.walk().orElseThrow();
        return Jdbc.query(c, walk, binds, dialect, rs -> walked(walk, rs));
    }

    /**
     * What a settlement that walks on came to: whether the session held the settled row's key (where it did
     * not, its connection must end its session), and the walk's result.
     */
    public record SettledWalk<R>(boolean unlocked, Walked<R> walked) {}

    /**
     * An outcome, its key's release and the walk to the next row in one statement ({@link
     * SubscriptionStatements#walking()}), bound from the outcome's {@code binds} (its row's id among them),
     * its row's {@code key}, and the group and the clock of this claim.
     */
    public SettledWalk<R> settleAndWalk(Connection c, Statement statement, Binds binds, String key)
            throws SQLException {
        Binds all = binds.copy().key(key).group(group).now(clock.get());
        return Jdbc.query(c, statement, all, dialect, rs -> {
            Walked<R> walked = walked(statement, rs);
            return new SettledWalk<>(rs.getBoolean("tq_unlocked"), walked);
        });
    }

    private Walked<R> walked(Statement walk, ResultSet rs) throws SQLException {
        if (!rs.next()) {
            throw new SQLException("the " + walk.purpose() + " of \"" + binding.tableName()
                    + "\" returned no row (it returns one, with or without a row taken)");
        }
        String key = rs.getString("tq_key");
        return new Walked<>(key == null ? null : rows.read(rs), key, rs.getBoolean("tq_locked"),
                rs.getBoolean("tq_cut"));
    }

    /** Reads one claimed row by id: the service's own fetch, or the dialect's; an id without a row fails to decode. */
    public List<R> fetch(Connection c, Object id) throws SQLException {
        return RowFetch.fetch(c, dialect, binding, statements.fetchOne().orElse(null), id, rows);
    }
}
