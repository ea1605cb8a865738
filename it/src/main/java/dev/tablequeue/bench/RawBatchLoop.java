package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BenchStatements;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.conf.ParamType;
import org.jooq.impl.DSL;

/**
 * The batched baseline (issue 14): a hand-written JDBC loop that claims up to {@code batch} rows in one
 * statement and acknowledges all of them in one statement, as a service that batches by hand would.
 *
 * <ul>
 *   <li>row lock: in one transaction, the dialect's claim with {@code LIMIT batch}, then
 *       {@code UPDATE .. SET processed_at = ? WHERE id IN (..)}, then one commit;
 *   <li>lease: the dialect's claim with {@code LIMIT batch} (and its stamp, where the claim does not stamp)
 *       committed at once, then {@code UPDATE .. SET processed_at = ?, lease = NULL WHERE id IN (..) AND
 *       lease = ?} in auto-commit: the acknowledgement by ids and token;
 *   <li>advisory (PostgreSQL only): in auto-commit, one statement that reads the claimable rows in claim order,
 *       tries each row's key with {@code pg_try_advisory_lock} until it holds {@code batch} keys, takes those
 *       rows ({@code attempt + 1}, the row read again as committed) and releases a key whose row it did not
 *       take; then one statement that sets processed_at on the ids and, for each key, takes the key again for
 *       the transaction before it releases the session's hold, so no key comes free before the
 *       acknowledgement commits. The rows read are at most as many as every worker could hold and one batch
 *       more, so the rows other workers hold do not leave the claim empty.
 * </ul>
 *
 * <p>Transactional ({@link #transactional}): the handler's writes, one effects row per job in one
 * {@code INSERT .. VALUES} statement, commit with the acknowledgement: row lock, in the claim's transaction;
 * lease, in a transaction of the insert and the token-checked acknowledgement after the claim committed;
 * advisory, in a transaction of the insert and the acknowledgement, whose keys come free at its commit.
 *
 * <p>Each worker is a platform thread holding one connection for the run, with a cached
 * {@link PreparedStatement} per statement and per number of ids. MariaDB's and SQLite's advisory forms have no
 * batched baseline. Where the dialect forbids parallel claims (SQLite), the claims take turns.
 */
final class RawBatchLoop {
    private final DataSource pool;
    private final QueueDialect dialect;
    private final RoleBinding<Record> binding;
    private final RawStatements statements;
    private final ReentrantLock turn;
    private final int batch;
    private final DSLContext render;
    /** PostgreSQL's advisory form: the claim and the acknowledgement (see the class comment); null otherwise. */
    private final String advisoryClaim;
    private final String advisoryAck;
    /** The table whose effects a transactional loop writes; null for the plain loop. */
    private final BenchTable effects;

    RawBatchLoop(BenchDatabase db, BenchTable table, Form form, int batch) {
        this(db, table, form, batch, false);
    }

    /** The transactional batched loop: each claim's effect rows committed with its acknowledgement. */
    static RawBatchLoop transactional(BenchDatabase db, BenchTable table, Form form, int batch) {
        return new RawBatchLoop(db, table, form, batch, true);
    }

    private RawBatchLoop(BenchDatabase db, BenchTable table, Form form, int batch, boolean transactional) {
        if (!covers(db.engine(), form)) {
            throw new IllegalArgumentException("the advisory form has no batched baseline on " + db.engine().label());
        }
        this.pool = db.pool();
        this.dialect = db.dialect();
        this.binding = table.binding(form);
        this.statements = RawStatements.of(dialect, binding);
        this.turn = dialect.claimsInParallel() ? null : new ReentrantLock(true);
        this.batch = batch;
        this.render = DSL.using(dialect.sqlDialect(), StatementWriter.settings());
        this.advisoryClaim = form == Form.ADVISORY ? RawAdvisorySql.claim(render, table) : null;
        this.advisoryAck = form == Form.ADVISORY ? RawAdvisorySql.ack(render, table) : null;
        this.effects = transactional ? table : null;
    }

    /** Whether {@code form} has a batched baseline on {@code engine}. */
    static boolean covers(Engine engine, Form form) {
        return form != Form.ADVISORY || engine == Engine.POSTGRES;
    }

    /** Handles {@code messages} prefilled rows with {@code workers} workers; returns once every one is acknowledged. */
    Measurement run(int workers, long messages) throws Exception {
        return RawWorkers.run(pool, workers, messages, false, "bench-raw-batch", c -> new Worker(c, workers));
    }

    /** {@code UPDATE .. SET processed_at = ?[, lease = NULL] WHERE id IN (n ids)[ AND lease = ?]}, rendered once. */
    private String ackSql(int n) {
        Field<Object> id = field(Role.ID);
        Field<Object> processedAt = field(Role.PROCESSED_AT);
        List<Field<Object>> ids = new ArrayList<>(Collections.nCopies(n, DSL.param("id", Object.class)));
        Condition where = id.in(ids);
        Map<Field<?>, Field<?>> set = new java.util.LinkedHashMap<>();
        set.put(processedAt, DSL.param("now", Object.class));
        if (binding.form() == Form.LEASE) {
            Field<Object> lease = field(Role.LEASE);
            set.put(lease, DSL.inline(null, lease));
            where = where.and(lease.eq(DSL.param("token", Object.class)));
        }
        return render.update(binding.table()).set(set).where(where).getSQL(ParamType.INDEXED);
    }

    @SuppressWarnings("unchecked")
    private Field<Object> field(Role role) {
        return (Field<Object>) binding.column(role).orElseThrow();
    }

    /** How many deadlocks in a row a worker's claim rolls back and makes again before the run fails. */
    private static final int DEADLOCK_RETRIES = 10;

    /** One worker's connection, its prepared statements and its binds. */
    private final class Worker implements RawWorkers.Worker {
        private final Connection c;
        private final Map<Integer, PreparedStatement> acks = new HashMap<>();
        private final RawConnection raw;
        private final Binds claimBinds = new Binds().group(BenchTable.GROUP);
        private final Binds rowBinds = new Binds().group(BenchTable.GROUP);
        private final List<Object> ids = new ArrayList<>();
        /** The advisory form's keys, one per id. */
        private final List<String> keys = new ArrayList<>();
        private PreparedStatement advisoryClaims;
        private PreparedStatement advisoryAcks;
        /** The rows an advisory claim reads: past those the run's other workers may hold, and one batch more. */
        private final int advisoryRead;
        private final Map<Integer, Statement> stamps = new HashMap<>();
        private final RawEffects written;
        private long sink;

        Worker(Connection c, int workers) throws SQLException {
            this.c = c;
            this.written = effects == null ? null : new RawEffects(c, effects);
            this.advisoryRead = workers * batch + batch;
            this.raw = new RawConnection(c, dialect, statements.opening());
            if (binding.form() == Form.ROW_LOCK && !statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
        }

        /** One claim and its acknowledgement; the rows it handled. */
        @Override
        public int once() throws Exception {
            return switch (binding.form()) {
                case ROW_LOCK -> rowLock();
                case LEASE -> lease();
                case ADVISORY -> advisory();
            };
        }

        /** The advisory claim, then its acknowledgement, each one statement in auto-commit. */
        private int advisory() throws SQLException {
            if (advisoryClaims == null) {
                advisoryClaims = c.prepareStatement(advisoryClaim);
                advisoryAcks = c.prepareStatement(advisoryAck);
            }
            ids.clear();
            keys.clear();
            Instant now = Instant.now();
            advisoryClaims.setString(1, BenchTable.GROUP);
            advisoryClaims.setObject(2, dialect.timeValue(binding.column(Role.RETRY_AFTER).orElseThrow(), now));
            advisoryClaims.setInt(3, advisoryRead);
            advisoryClaims.setInt(4, batch);
            try (ResultSet rs = advisoryClaims.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    keys.add(rs.getString(2));
                    sink += rs.getInt(3) + rs.getInt(4); // the no-op handler reads the row
                    byte[] payload = rs.getBytes(5);
                    sink += payload == null ? 0 : payload.length;
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            if (written != null) {
                c.setAutoCommit(false);
                written.write(ids);
            }
            advisoryAcks.setObject(1, dialect.timeValue(binding.column(Role.PROCESSED_AT).orElseThrow(), now));
            advisoryAcks.setArray(2, c.createArrayOf("bigint", ids.toArray()));
            advisoryAcks.setArray(3, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = advisoryAcks.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != ids.size() || rs.getInt(2) != ids.size()) {
                    throw new IllegalStateException("the batched advisory acknowledgement updated " + rs.getInt(1)
                            + " rows and released " + rs.getInt(2) + " keys of " + ids.size() + " in "
                            + binding.tableName());
                }
            }
            if (written != null) {
                c.commit();
                c.setAutoCommit(true);
            }
            return ids.size();
        }

        /**
         * After a deadlock of the transaction that claims (InnoDB picks a victim among claims that lock the same
         * index entries, as the runtime's claim backs off and claims again): rolls it back so that the loop claims
         * again, as a hand-written loop on InnoDB does; after {@link #DEADLOCK_RETRIES} in a row, fails.
         */
        private void rolledBackAfter(java.sql.SQLTransactionRollbackException deadlock, int attempt)
                throws SQLException {
            try {
                end(false);
            } catch (SQLException alreadyEnded) {
                deadlock.addSuppressed(alreadyEnded);
            }
            if (binding.form() == Form.LEASE && !statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            if (attempt >= DEADLOCK_RETRIES) {
                throw deadlock;
            }
        }

        private int rowLock() throws Exception {
            for (int attempt = 1; ; attempt++) {
                try {
                    return rowLockOnce();
                } catch (java.sql.SQLTransactionRollbackException deadlock) {
                    rolledBackAfter(deadlock, attempt);
                }
            }
        }

        private int rowLockOnce() throws Exception {
            open();
            Instant now = Instant.now();
            claimBinds.now(now).limit(batch);
            claim(statements.claim().apply(batch));
            if (ids.isEmpty()) {
                end(false);
                return 0;
            }
            if (written != null) {
                written.write(ids);
            }
            acknowledge(now, null);
            end(true);
            return ids.size();
        }

        private int lease() throws Exception {
            Instant until;
            for (int attempt = 1; ; attempt++) {
                try {
                    until = leaseClaim();
                    break;
                } catch (java.sql.SQLTransactionRollbackException deadlock) {
                    rolledBackAfter(deadlock, attempt);
                }
            }
            if (ids.isEmpty()) {
                return 0;
            }
            if (written == null) {
                acknowledge(Instant.now(), until);
                return ids.size();
            }
            if (!statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
            open();
            written.write(ids);
            acknowledge(Instant.now(), until);
            end(true);
            if (!statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            return ids.size();
        }

        /** The lease claim's transaction: claims and stamps the rows, commits; the lease it wrote. */
        private Instant leaseClaim() throws Exception {
            if (!statements.opening().explicit()) {
                c.setAutoCommit(false);
            }
            open();
            Instant now = Instant.now();
            Instant until = now.plusSeconds(30);
            claimBinds.now(now).limit(batch).leaseUntil(until);
            claim(statements.claim().apply(batch));
            if (!ids.isEmpty() && statements.stamp() != null) {
                Statement stamp = stamps.computeIfAbsent(ids.size(), n -> BenchStatements.leaseStamp(dialect, binding, n));
                rowBinds.ids(List.copyOf(ids)).leaseUntil(until);
                bound(stamp, rowBinds).executeUpdate();
            }
            end(!ids.isEmpty());
            if (!statements.opening().explicit()) {
                c.setAutoCommit(true);
            }
            return until;
        }

        /** Runs the claim (under the turn where claims take turns) and reads its rows as the handler would. */
        private void claim(Statement claim) throws Exception {
            ids.clear();
            if (turn != null) {
                turn.lock();
            }
            try (ResultSet rs = bound(claim, claimBinds).executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    ids.add(rs.getObject(1));
                    for (int i = 2; i <= columns; i++) {
                        Object value = rs.getObject(i);
                        sink += value instanceof byte[] bytes ? bytes.length : 1; // the no-op handler reads it
                    }
                }
            } finally {
                if (turn != null) {
                    turn.unlock();
                }
            }
        }

        /** Acknowledges every id of the claim in one statement (and, lease form, while it holds {@code token}). */
        private void acknowledge(Instant now, Instant token) throws SQLException {
            PreparedStatement ps = acks.get(ids.size());
            if (ps == null) {
                ps = c.prepareStatement(ackSql(ids.size()));
                acks.put(ids.size(), ps);
            }
            int i = 1;
            ps.setObject(i++, dialect.timeValue(binding.column(Role.PROCESSED_AT).orElseThrow(), now));
            for (Object id : ids) {
                ps.setObject(i++, id);
            }
            if (token != null) {
                ps.setObject(i, dialect.timeValue(binding.column(Role.LEASE).orElseThrow(), token));
            }
            int updated = ps.executeUpdate();
            if (updated != ids.size()) {
                throw new IllegalStateException("the batched acknowledgement updated " + updated + " of " + ids.size()
                        + " rows of " + binding.tableName());
            }
        }

        private PreparedStatement bound(Statement statement, Binds binds) throws SQLException {
            return raw.bound(statement, binds);
        }

        private void open() throws SQLException {
            raw.open();
        }

        private void end(boolean commit) throws SQLException {
            raw.end(commit);
        }

        @Override
        public void close() throws SQLException {
            if (written != null) {
                written.close();
            }
            for (PreparedStatement ps : acks.values()) {
                ps.close();
            }
            if (advisoryClaims != null) {
                advisoryClaims.close();
                advisoryAcks.close();
            }
            raw.close();
            if (sink == 42) {
                System.out.print(""); // keeps the handler's reads alive
            }
        }
    }
}
