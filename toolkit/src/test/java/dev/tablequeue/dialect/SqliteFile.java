package dev.tablequeue.dialect;

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

/**
 * A new SQLite file in a temporary folder of its own, deleted on close: the SQLite part of the test kit's
 * {@code FreshDatabase}, which the toolkit's tests cannot use (the kit depends on the toolkit).
 */
final class SqliteFile implements AutoCloseable {
    private final Path file;
    private final String url;

    SqliteFile(String name) {
        String db = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        try {
            this.file = Files.createTempDirectory("tablequeue-").resolve(db + ".db");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a SQLite file for " + db, e);
        }
        this.url = "jdbc:sqlite:" + file;
    }

    /** The JDBC URL of the file. */
    String url() {
        return url;
    }

    /** A new connection to the file. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** A HikariCP pool of {@code size} connections on the file, each waiting up to 10 s for a lock. */
    HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setPoolName("tq-" + file.getFileName());
        config.setConnectionInitSql("PRAGMA busy_timeout = 10000");
        return new HikariDataSource(config);
    }

    /** Runs each statement in turn on a new connection. */
    void execute(String... statements) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("on SQLite: " + e.getMessage(), e);
        }
    }

    /** Deletes the file, its journal files and its folder. */
    @Override
    public void close() {
        try {
            for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
                Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
            }
            Files.deleteIfExists(file.getParent());
        } catch (IOException ignored) {
            // a temporary folder: the system cleans it
        }
    }
}
