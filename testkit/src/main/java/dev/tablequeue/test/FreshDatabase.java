package dev.tablequeue.test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opentest4j.TestAbortedException;

/**
 * An empty database of its own on a server (or a new SQLite file), made and dropped by the caller: what a
 * {@link TableQueueDatabase} makes for each test class, for a test that makes its databases itself (a second
 * database beside its own, one per test, one a contract suite's hook opens).
 *
 * <p>The server is found as {@link TableQueueDatabase} finds it: the engine's variable
 * ({@code TABLEQUEUE_POSTGRES_URL}, ...), else its system property ({@code tablequeue.postgres.url}, ...), else a
 * Testcontainers container where a Docker engine answers. Where none gives a server, or it cannot be reached,
 * {@link #create} fails the test that asked with what to set; where {@code TABLEQUEUE_SKIP_UNREACHABLE=1} opts in,
 * it skips it instead (an aborted assumption), printing the reason.
 */
public final class FreshDatabase implements AutoCloseable {
    private static final Pattern SERVER_URL = Pattern.compile("^(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?$");
    /** PostgreSQL keeps 63 bytes of a name, MySQL 64. */
    private static final int LONGEST_NAME = 63;

    private final Engine engine;
    private final String name;
    private final String url;
    private final String adminUrl;
    private final String origin;
    private final Path file;

    private FreshDatabase(Engine engine, String name, String url, String adminUrl, String origin, Path file) {
        this.engine = engine;
        this.name = name;
        this.url = url;
        this.adminUrl = adminUrl;
        this.origin = origin;
        this.file = file;
    }

    /**
     * Makes database {@code <prefix><name>} on {@code engine}'s server (see {@link #prefix()}; the name in lower
     * case, every other character than a letter, digit or underscore made an underscore), dropping one an earlier
     * run left. On SQLite it makes a new file in a temporary folder.
     *
     * @throws IllegalStateException where no server is found or it refuses the database, saying what to set
     * @throws TestAbortedException instead, where {@code TABLEQUEUE_SKIP_UNREACHABLE=1}
     */
    public static FreshDatabase create(Engine engine, String name) {
        Objects.requireNonNull(engine, "engine");
        String db = (prefix() + name).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (db.length() > LONGEST_NAME) {
            throw new IllegalArgumentException("database name " + db + " is longer than " + LONGEST_NAME
                    + " characters, which PostgreSQL would cut: give a shorter name");
        }
        if (engine == Engine.SQLITE) {
            return sqlite(db);
        }
        Servers.Server server;
        try {
            server = Servers.find(engine, engine.defaultImage());
        } catch (Servers.NoServer e) {
            throw MissingServer.outcome(db, engine, e.getMessage(), e, MissingServer.skipOptedIn());
        }
        try {
            return onServer(engine, db, server);
        } catch (SQLException e) {
            throw MissingServer.outcome(db, engine, refused(engine, db, server, e), e, MissingServer.skipOptedIn());
        }
    }

    /** A new SQLite file named {@code db} in a temporary folder of its own. */
    static FreshDatabase sqlite(String db) {
        try {
            Path file = Files.createTempDirectory("tablequeue-test-").resolve(db + ".db");
            return new FreshDatabase(Engine.SQLITE, db, "jdbc:sqlite:" + file, null, "file " + file, file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a SQLite file for " + db + ": " + e.getMessage(), e);
        }
    }

    /** Database {@code db} on {@code server}, made anew (one of that name an earlier run left is dropped). */
    static FreshDatabase onServer(Engine engine, String db, Servers.Server server) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.adminUrl()); Statement s = c.createStatement()) {
            s.execute(dropSql(engine, db));
            s.execute(engine == Engine.POSTGRES
                    ? "CREATE DATABASE \"" + db + "\""
                    : "CREATE DATABASE `" + db + "` CHARACTER SET utf8mb4");
        }
        return new FreshDatabase(engine, db, withDatabase(server.adminUrl(), db), server.adminUrl(), server.origin(),
                null);
    }

    /** Why {@code server} made no database {@code db}, in words. */
    static String refused(Engine engine, String db, Servers.Server server, SQLException e) {
        return "cannot create database " + db + " on the " + engine + " server of " + server.origin() + " ("
                + redacted(server.adminUrl()) + "): " + e.getMessage();
    }

    private static String dropSql(Engine engine, String db) {
        return engine == Engine.POSTGRES
                ? "DROP DATABASE IF EXISTS \"" + db + "\" WITH (FORCE)"
                : "DROP DATABASE IF EXISTS `" + db + "`";
    }

    /**
     * Whether a missing server (a database's, or a broker's a test needs) fails the tests instead of skipping them:
     * true unless {@code TABLEQUEUE_SKIP_UNREACHABLE=1} (or the system property
     * {@code tablequeue.skip.unreachable=true}) opts into skipping, which {@code TABLEQUEUE_REQUIRE_LIVE=1} vetoes.
     */
    public static boolean liveRequired() {
        return !MissingServer.skipOptedIn();
    }

    /**
     * The prefix of every database the kit makes: {@code TABLEQUEUE_DB_PREFIX}, or {@code tq_}. Two builds that
     * share a server at once (two checkouts) set different prefixes, so that neither drops the other's databases.
     */
    public static String prefix() {
        String set = System.getenv("TABLEQUEUE_DB_PREFIX");
        if (set == null || set.isBlank()) {
            return "tq_";
        }
        if (!set.matches("[a-z][a-z0-9_]{0,15}")) {
            throw new IllegalStateException("TABLEQUEUE_DB_PREFIX must be 1 to 16 lower-case letters, digits or"
                    + " underscores, starting with a letter; was '" + set + "'");
        }
        return set;
    }

    /** {@code admin} with its database replaced by {@code db}. */
    static String withDatabase(String admin, String db) {
        Matcher m = SERVER_URL.matcher(admin);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a JDBC URL of a server (jdbc:<driver>://host[:port]/..): "
                    + redacted(admin));
        }
        return m.group(1) + "/" + db + (m.group(3) == null ? "" : m.group(3));
    }

    /** {@code url} with a password in its query replaced by {@code ***}. */
    static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    /** The engine. */
    public Engine engine() {
        return engine;
    }

    /** The database's name (SQLite: the file's name without {@code .db}). */
    public String name() {
        return name;
    }

    /** The database's JDBC URL. */
    public String url() {
        return url;
    }

    /**
     * The administrative JDBC URL of the server the database is on (one that may create and drop databases); null
     * for SQLite.
     */
    public String adminUrl() {
        return adminUrl;
    }

    /** Where the server came from: the variable or property that named it, the container's image, or the file. */
    public String origin() {
        return origin;
    }

    /** A new connection to the database. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** A new HikariCP pool of {@code size} connections on the database; the caller closes it. */
    public HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setPoolName("tablequeue-test-" + name);
        if (engine == Engine.SQLITE) {
            config.setConnectionInitSql("PRAGMA busy_timeout = 10000");
        }
        return new HikariDataSource(config);
    }

    /** Runs each statement in turn on a new connection. */
    public void execute(String... statements) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("on " + engine + " database " + name + ": " + e.getMessage(), e);
        }
    }

    /** Drops the database (or deletes the SQLite file and its folder). */
    @Override
    public void close() {
        if (file != null) {
            try {
                for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                    Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
                }
                Files.deleteIfExists(file.getParent());
            } catch (IOException ignored) {
                // a temporary folder: the system cleans it
            }
            return;
        }
        try (Connection c = DriverManager.getConnection(adminUrl); Statement s = c.createStatement()) {
            s.execute(dropSql(engine, name));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop " + engine + " database " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "FreshDatabase[" + engine + ", " + name + " from " + origin + "]";
    }
}
