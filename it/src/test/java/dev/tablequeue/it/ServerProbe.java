package dev.tablequeue.it;

import dev.tablequeue.internal.SqliteKeyRegistry;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * What a test reads off the server itself, apart from the broker: who holds an advisory key (as the
 * dialects lock it), which transactions are open, which sessions are alive. SQLite keeps its keys in the
 * process ({@link SqliteKeyRegistry}) and has no sessions.
 */
final class ServerProbe {
    private final FreshDatabase db;

    ServerProbe(FreshDatabase db) {
        this.db = db;
    }

    /** Whether any session holds {@code key} in this database, locked as the built-in dialect locks it. */
    boolean keyHeld(String key) throws SQLException {
        try (Connection c = db.connect()) {
            if (db.engine() == Engine.SQLITE) {
                return SqliteKeyRegistry.process().isHeld(SqliteKeyRegistry.databaseOf(c), key);
            }
            return holderOf(c, key).isPresent();
        }
    }

    /** The session (PostgreSQL pid, MariaDB connection id) that holds {@code key} in this database. */
    Optional<Long> holderOf(String key) throws SQLException {
        try (Connection c = db.connect()) {
            return holderOf(c, key);
        }
    }

    private static Optional<Long> holderOf(Connection c, String key) throws SQLException {
        String sql = postgres(c)
                ? "select pid from pg_catalog.pg_locks where locktype = 'advisory' and granted and objsubid = 1"
                        + " and database = (select oid from pg_catalog.pg_database where datname = current_database())"
                        + " and classid = ((hashtextextended(?, 0) >> 32) & 4294967295)::oid"
                        + " and objid = (hashtextextended(?, 0) & 4294967295)::oid"
                : "select is_used_lock(concat(lower(database()), '.', ?))";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            if (postgres(c)) {
                ps.setString(2, key);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long id = rs.getLong(1);
                return rs.wasNull() ? Optional.empty() : Optional.of(id);
            }
        }
    }

    /**
     * Takes {@code key} for the session of {@code c} as the built-in dialect would on that connection's
     * database: a session lock on PostgreSQL and MariaDB, the process's registry on SQLite. The hold ends
     * with {@code c}'s session (SQLite: with {@link SqliteKeyRegistry.Hold#release()}).
     */
    static Optional<SqliteKeyRegistry.Hold> holdKey(Connection c, String key) throws SQLException {
        if (c.getMetaData().getURL().startsWith("jdbc:sqlite:")) {
            return Optional.of(SqliteKeyRegistry.process().tryTake(SqliteKeyRegistry.databaseOf(c), key)
                    .orElseThrow(() -> new AssertionError("key " + key + " is already held")));
        }
        String sql = postgres(c) ? "select pg_try_advisory_lock(hashtextextended(?, 0))"
                : "select get_lock(concat(lower(database()), '.', ?), 0)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !truth(rs.getObject(1))) {
                    throw new AssertionError("key " + key + " is already held");
                }
            }
        }
        return Optional.empty();
    }

    /** The statement of a service's own lock that locks a key as the built-in dialect does (servers only). */
    String lockSql() {
        return db.engine() == Engine.POSTGRES
                ? "select pg_try_advisory_lock(hashtextextended(?, 0))"
                : "select get_lock(concat(lower(database()), '.', ?), 0)";
    }

    /** The release that goes with {@link #lockSql()}. */
    String unlockSql() {
        return db.engine() == Engine.POSTGRES
                ? "select pg_advisory_unlock(hashtextextended(?, 0))"
                : "select release_lock(concat(lower(database()), '.', ?))";
    }

    /** The session id of the connection {@code ctx} runs on (servers only). */
    static long sessionOf(DSLContext ctx) {
        String sql = ctx.dialect().family() == org.jooq.SQLDialect.POSTGRES ? "select pg_backend_pid()"
                : "select connection_id()";
        return ((Number) ctx.fetchValue(sql)).longValue();
    }

    /** Whether session {@code id} is still connected to the server. */
    boolean sessionAlive(long id) throws SQLException {
        String sql = db.engine() == Engine.POSTGRES
                ? "select count(*) from pg_catalog.pg_stat_activity where pid = ?"
                : "select count(*) from information_schema.processlist where id = ?";
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /** Ends session {@code id} on the server, as an operator or a failover would. */
    void kill(long id) throws SQLException {
        String sql = db.engine() == Engine.POSTGRES ? "select pg_terminate_backend(" + id + ")"
                : "kill " + id;
        try (Connection c = db.connect(); java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    /** The transactions open in this database now, other than the probe's own (0 on SQLite, which keeps none open). */
    long openTransactions() throws SQLException {
        if (db.engine() == Engine.SQLITE) {
            return 0;
        }
        String sql = db.engine() == Engine.POSTGRES
                ? "select count(*) from pg_catalog.pg_stat_activity where datname = current_database()"
                        + " and backend_type = 'client backend' and pid <> pg_backend_pid() and xact_start is not null"
                : "select count(*) from information_schema.innodb_trx t join information_schema.processlist p"
                        + " on p.id = t.trx_mysql_thread_id where p.db = database() and p.id <> connection_id()";
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * How the transaction {@code ctx} runs in was opened: its isolation level in lower case on a server,
     * and on SQLite "immediate" where it holds the database's write lock before it writes, else "deferred".
     */
    String openingOf(DSLContext ctx, String url) {
        return switch (db.engine()) {
            case POSTGRES -> ctx.fetchValue("select current_setting('transaction_isolation')").toString();
            // InnoDB serves this table from a cache, refreshed only where it was not read for 0.1 s: a transaction
            // just begun may not be in it yet
            case MARIADB, MYSQL -> org.awaitility.Awaitility.await().pollInterval(Duration.ofMillis(150))
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> ctx.fetchValue("select trx_isolation_level from information_schema.innodb_trx"
                            + " where trx_mysql_thread_id = connection_id()"), v -> v != null)
                    .toString().toLowerCase();
            case SQLITE -> writeLockHeldElsewhere(url) ? "immediate" : "deferred";
        };
    }

    /** SQLite: whether another connection holds the write lock of the file at {@code url}. */
    private static boolean writeLockHeldElsewhere(String url) {
        try (Connection c = DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout = 0");
            try {
                s.execute("BEGIN IMMEDIATE");
            } catch (SQLException busy) {
                return true;
            }
            s.execute("ROLLBACK");
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean postgres(Connection c) throws SQLException {
        return c.getMetaData().getURL().startsWith("jdbc:postgresql:");
    }

    static boolean truth(Object value) {
        return value instanceof Boolean b ? b : value instanceof Number n && n.longValue() == 1L;
    }
}
