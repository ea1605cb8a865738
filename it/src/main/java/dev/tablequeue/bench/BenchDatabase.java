package dev.tablequeue.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.StatementBinder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.Field;
import org.jooq.Record;

/**
 * A database of the harness's own ({@code tq_bench} on a server, a fresh file for SQLite), with one pool on
 * it for every contender, and the tables of its runs.
 *
 * <p>On PostgreSQL the main bench database runs with {@code synchronous_commit = off}, set on the database
 * alone: on a small machine a commit's flush dominates and hides the cost of the code under test. A
 * durable bench database keeps the server's default. Nothing is changed on the server beyond that.
 */
final class BenchDatabase implements AutoCloseable {
    /** A payload like a small JSON job. */
    static final byte[] PAYLOAD = "{\"kind\":\"bench\",\"n\":12345}".getBytes(StandardCharsets.UTF_8);

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final int PREFILL_BATCH = 1000;

    private final Engine engine;
    private final String name;
    private final String url;
    private final Path file;
    private final boolean durable;
    private final HikariDataSource pool;
    private final QueueDialect dialect;

    private BenchDatabase(Engine engine, String name, String url, Path file, boolean durable, int poolSize) {
        this.engine = engine;
        this.name = name;
        this.url = url;
        this.file = file;
        this.durable = durable;
        this.pool = pool(engine, url, name, poolSize);
        try (Connection c = pool.getConnection()) {
            this.dialect = QueueDialects.detect(c);
        } catch (SQLException e) {
            pool.close();
            throw new IllegalStateException("cannot reach " + name + " on " + engine.label() + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Creates (or creates again) bench database {@code name} on {@code engine}, with a pool of
     * {@code poolSize} connections. {@code durable} keeps PostgreSQL's {@code synchronous_commit} as the
     * server has it; otherwise the database sets it off.
     */
    static BenchDatabase create(Engine engine, String name, boolean durable, int poolSize) {
        if (engine == Engine.SQLITE) {
            try {
                Path dir = Files.createTempDirectory("tq-bench-");
                Path file = dir.resolve(name + ".db");
                String url = "jdbc:sqlite:" + file;
                try (Connection c = DriverManager.getConnection(url); var s = c.createStatement()) {
                    s.execute("PRAGMA journal_mode = WAL");
                }
                return new BenchDatabase(engine, name, url, file, durable, poolSize);
            } catch (IOException | SQLException e) {
                throw new IllegalStateException("cannot create a SQLite file: " + e.getMessage(), e);
            }
        }
        String admin = engine.adminUrl();
        try (Connection c = DriverManager.getConnection(admin); var s = c.createStatement()) {
            if (engine == Engine.POSTGRES) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                s.execute("CREATE DATABASE " + name);
                if (!durable) {
                    s.execute("ALTER DATABASE " + name + " SET synchronous_commit = off");
                }
            } else {
                s.execute("DROP DATABASE IF EXISTS " + name);
                s.execute("CREATE DATABASE " + name + " CHARACTER SET utf8mb4");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(engine.label() + " at " + admin + " is not reachable: " + e.getMessage(),
                    e);
        }
        return new BenchDatabase(engine, name, withDatabase(admin, name), null, durable, poolSize);
    }

    private static HikariDataSource pool(Engine engine, String url, String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setPoolName("bench-" + engine.label() + "-" + name);
        if (engine == Engine.SQLITE) {
            // sqlite-jdbc reads pragmas from the connection's properties
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("synchronous", "NORMAL");
            config.addDataSourceProperty("busy_timeout", "10000");
        }
        return new HikariDataSource(config);
    }

    /** {@code admin} with its database replaced by {@code db}. */
    static String withDatabase(String admin, String db) {
        Matcher m = Pattern.compile("^(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?$").matcher(admin);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a JDBC server URL: " + admin);
        }
        return m.group(1) + "/" + db + (m.group(3) == null ? "" : m.group(3));
    }

    Engine engine() {
        return engine;
    }

    String name() {
        return name;
    }

    boolean durable() {
        return durable;
    }

    HikariDataSource pool() {
        return pool;
    }

    QueueDialect dialect() {
        return dialect;
    }

    /** Creates a fresh bench table. */
    BenchTable newTable() {
        String table = "bench_" + TABLES.incrementAndGet();
        execute(engine.createTable(table).toArray(String[]::new));
        execute(engine.createEffects(table));
        return new BenchTable(table, engine.timeType());
    }

    void drop(BenchTable table) {
        execute("DROP TABLE IF EXISTS " + table.getName(), "DROP TABLE IF EXISTS " + Engine.effects(table.getName()));
    }

    /**
     * Writes {@code n} due messages into {@code table} with the insert a publish runs, in batches, then
     * refreshes the planner's statistics.
     */
    void prefill(BenchTable table, long n) throws SQLException {
        RoleBinding<Record> binding = table.publishBinding(engine);
        Statement insert = dialect.inserts(binding).insert();
        Binds binds = new Binds().values(insertValues(binding));
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(insert.sql())) {
            c.setAutoCommit(false);
            try {
                for (long i = 0; i < n; i++) {
                    StatementBinder.bind(ps, insert, binds, dialect);
                    ps.addBatch();
                    if ((i + 1) % PREFILL_BATCH == 0 || i == n - 1) {
                        ps.executeBatch();
                        c.commit();
                    }
                }
            } finally {
                c.setAutoCommit(true);
            }
        }
        execute(engine.analyze(table.getName()));
    }

    /**
     * Writes {@code acknowledged} acknowledged messages into {@code table} ahead of its pending ones (so they
     * hold the smaller ids, as old rows do), in one statement the server generates.
     */
    void fillAcknowledged(BenchTable table, long acknowledged) {
        execute(engine.fillAcknowledged(table.getName(), acknowledged, PAYLOAD));
    }

    /** The values of {@code binding}'s insert for one bench message, in the insert's column order. */
    static List<Object> insertValues(RoleBinding<Record> binding) {
        List<Object> values = new ArrayList<>();
        for (Field<?> column : binding.insertColumns()) {
            values.add(switch (column.getName()) {
                case "grp" -> BenchTable.GROUP;
                case "payload" -> PAYLOAD;
                default -> null;
            });
        }
        return values;
    }

    /** Rows of {@code table} matching {@code condition}. */
    long count(String table, String condition) {
        try (Connection c = pool.getConnection(); var s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table + " WHERE " + condition)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count " + table + ": " + e.getMessage(), e);
        }
    }

    /** Runs each statement in turn on a connection of the pool. */
    void execute(String... statements) {
        try (Connection c = pool.getConnection(); var s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("on " + engine.label() + ": " + e.getMessage(), e);
        }
    }

    /** The settings this database ran under, by name. */
    Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        String[][] queries = switch (engine) {
            case POSTGRES -> new String[][] {
                {"server_version", "SHOW server_version"},
                {"synchronous_commit (bench database)", "SHOW synchronous_commit"},
                {"fsync", "SHOW fsync"},
                {"full_page_writes", "SHOW full_page_writes"},
                {"wal_level", "SHOW wal_level"},
                {"shared_buffers", "SHOW shared_buffers"},
                {"max_connections", "SHOW max_connections"},
                // whether autovacuum runs at all, and how often it visits a database: the steady state's dead
                // tuples hang on both
                {"autovacuum", "SHOW autovacuum"},
                {"autovacuum_naptime", "SHOW autovacuum_naptime"},
            };
            case MARIADB -> new String[][] {
                {"version", "SELECT @@version"},
                {"innodb_flush_log_at_trx_commit", "SELECT @@innodb_flush_log_at_trx_commit"},
                {"sync_binlog", "SELECT @@sync_binlog"},
                {"log_bin", "SELECT @@log_bin"},
                {"innodb_doublewrite", "SELECT @@innodb_doublewrite"},
                {"innodb_buffer_pool_size", "SELECT @@innodb_buffer_pool_size"},
                {"transaction isolation (server default)", "SELECT @@global.tx_isolation"},
            };
            case SQLITE -> new String[][] {
                {"sqlite_version", "SELECT sqlite_version()"},
                {"journal_mode", "PRAGMA journal_mode"},
                {"synchronous (0 off, 1 normal, 2 full)", "PRAGMA synchronous"},
                {"busy_timeout (ms)", "PRAGMA busy_timeout"},
            };
        };
        try (Connection c = pool.getConnection(); var s = c.createStatement()) {
            for (String[] q : queries) {
                try (ResultSet rs = s.executeQuery(q[1])) {
                    settings.put(q[0], rs.next() ? String.valueOf(rs.getObject(1)) : "?");
                } catch (SQLException e) {
                    settings.put(q[0], "unknown (" + e.getMessage() + ")");
                }
            }
        } catch (SQLException e) {
            settings.put("error", e.getMessage());
        }
        settings.put("pool", "HikariCP, " + pool.getMaximumPoolSize() + " connections");
        return settings;
    }

    @Override
    public void close() {
        pool.close();
        if (file != null) {
            try {
                for (String suffix : List.of("", "-wal", "-shm")) {
                    Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
                }
                Files.deleteIfExists(file.getParent());
            } catch (IOException ignored) {
                // a temporary file; the OS cleans the folder
            }
            return;
        }
        try (Connection c = DriverManager.getConnection(engine.adminUrl()); var s = c.createStatement()) {
            s.execute(engine == Engine.POSTGRES
                    ? "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"
                    : "DROP DATABASE IF EXISTS " + name);
        } catch (SQLException e) {
            System.err.println("cannot drop " + name + " on " + engine.label() + ": " + e.getMessage());
        }
    }
}
