package dev.tablequeue.testkit;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A fresh database of its own on a live server (or a fresh SQLite file), for one test class.
 *
 * <p>Servers come from {@code TABLEQUEUE_POSTGRES_URL}, {@code TABLEQUEUE_MARIADB_URL} and
 * {@code TABLEQUEUE_MYSQL_URL} (JDBC URLs of an administrative connection), defaulting to the local
 * PostgreSQL and MariaDB; MySQL has no default. A server that cannot be reached skips the test, unless
 * {@code TABLEQUEUE_REQUIRE_LIVE=1}, which makes it fail instead.
 */
public final class LiveDatabase implements AutoCloseable {

    /** The databases tablequeue runs on. */
    public enum Engine {
        POSTGRES("TABLEQUEUE_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"),
        MARIADB("TABLEQUEUE_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/?user=root"),
        MYSQL("TABLEQUEUE_MYSQL_URL", null),
        SQLITE(null, null);

        private final String variable;
        private final String fallback;

        Engine(String variable, String fallback) {
            this.variable = variable;
            this.fallback = fallback;
        }

        /** The administrative URL of the server, or null where none is configured. */
        public String adminUrl() {
            if (variable == null) {
                return null;
            }
            String set = System.getenv(variable);
            return set == null || set.isBlank() ? fallback : set;
        }
    }

    private final Engine engine;
    private final String name;
    private final String url;
    private final Path file;

    private LiveDatabase(Engine engine, String name, String url, Path file) {
        this.engine = engine;
        this.name = name;
        this.url = url;
        this.file = file;
    }

    /** Whether a missing server fails the run instead of skipping its tests. */
    public static boolean liveRequired() {
        return "1".equals(System.getenv("TABLEQUEUE_REQUIRE_LIVE"));
    }

    /**
     * The prefix of every database name a test creates: {@code TABLEQUEUE_DB_PREFIX}, or {@code tq_}. Two
     * builds that share a server at once (two checkouts) set different prefixes, so that neither drops the
     * other's databases.
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

    /**
     * Creates database {@code <prefix><name>} on {@code engine}'s server (see {@link #prefix()}), dropping one
     * left by an earlier run. On SQLite it creates a new file in a temporary folder.
     */
    public static LiveDatabase create(Engine engine, String name) {
        String db = (prefix() + name).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (engine == Engine.SQLITE) {
            try {
                Path dir = Files.createTempDirectory("tablequeue-");
                Path file = dir.resolve(db + ".db");
                return new LiveDatabase(engine, db, "jdbc:sqlite:" + file, file);
            } catch (IOException e) {
                throw new IllegalStateException("cannot create a SQLite file", e);
            }
        }
        String admin = engine.adminUrl();
        if (admin == null) {
            Assumptions.abort(engine + " is not configured: set " + engine.variable);
        }
        try (Connection c = DriverManager.getConnection(admin); Statement s = c.createStatement()) {
            if (engine == Engine.POSTGRES) {
                s.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
                s.execute("CREATE DATABASE " + db);
            } else {
                s.execute("DROP DATABASE IF EXISTS " + db);
                s.execute("CREATE DATABASE " + db + " CHARACTER SET utf8mb4");
            }
        } catch (SQLException e) {
            String why = engine + " at " + admin + " is not reachable: " + e.getMessage();
            if (liveRequired()) {
                throw new IllegalStateException(why + " (TABLEQUEUE_REQUIRE_LIVE=1)", e);
            }
            Assumptions.abort(why);
        }
        return new LiveDatabase(engine, db, withDatabase(admin, db), null);
    }

    /** {@code admin} with its database replaced by {@code db}. */
    static String withDatabase(String admin, String db) {
        Matcher m = Pattern.compile("^(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?$").matcher(admin);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a JDBC server URL: " + admin);
        }
        return m.group(1) + "/" + db + (m.group(3) == null ? "" : m.group(3));
    }

    public Engine engine() {
        return engine;
    }

    /** The database's name. */
    public String name() {
        return name;
    }

    /** The JDBC URL of the database. */
    public String url() {
        return url;
    }

    /** A new connection to the database. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** A HikariCP pool of {@code size} connections on the database. */
    public HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setPoolName("tq-" + name);
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
            throw new IllegalStateException("on " + engine + ": " + e.getMessage(), e);
        }
    }

    /** Drops the database (or deletes the SQLite file). */
    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + "-wal"));
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + "-shm"));
                Files.deleteIfExists(file.getParent());
            } catch (IOException ignored) {
                // a temporary file; the OS cleans the folder
            }
            return;
        }
        try (Connection c = DriverManager.getConnection(engine.adminUrl()); Statement s = c.createStatement()) {
            s.execute(engine == Engine.POSTGRES
                    ? "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"
                    : "DROP DATABASE IF EXISTS " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop " + name + " on " + engine, e);
        }
    }
}
