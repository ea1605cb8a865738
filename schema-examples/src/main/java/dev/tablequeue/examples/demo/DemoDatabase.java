package dev.tablequeue.examples.demo;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.examples.ExampleQueues;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;

/**
 * The database a demo runs on: a fresh SQLite file in a temporary folder (deleted on close) unless
 * {@code --url} names one. On a server the demo writes into the database the URL names, and nowhere else:
 * Flyway creates the example tables there (and refuses a database that holds other tables without Flyway's
 * history), so the URL must name a database of the user's own, never a server's administrative one.
 */
final class DemoDatabase implements AutoCloseable {

    /** The databases the demo runs on, each with its migrations (one binding of {@code demo_jobs} serves them all). */
    enum Kind {
        SQLITE("jdbc:sqlite:", "sqlite", ExampleQueues.DEMO_JOB),
        POSTGRES("jdbc:postgresql:", "postgresql", ExampleQueues.DEMO_JOB),
        MARIADB("jdbc:mariadb:", "mariadb", ExampleQueues.DEMO_JOB);

        private final String prefix;
        private final String migrations;
        private final RoleBinding<?> binding;

        Kind(String prefix, String migrations, RoleBinding<?> binding) {
            this.prefix = prefix;
            this.migrations = migrations;
            this.binding = binding;
        }

        static Kind of(String url) {
            for (Kind kind : values()) {
                if (url.startsWith(kind.prefix)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("--url takes a jdbc:sqlite:, jdbc:postgresql:// or jdbc:mariadb:// URL,"
                    + " was " + url);
        }
    }

    /** Databases a server keeps for itself: the demo's tables do not belong there. */
    private static final Set<String> SERVER_DATABASES = Set.of("postgres", "template0", "template1", "mysql", "sys",
            "information_schema", "performance_schema");
    private static final Pattern SERVER_URL = Pattern.compile("^jdbc:(?:postgresql|mariadb)://[^/?]+/([^?;]*)");

    private final Kind kind;
    private final String url;
    private final Path temporaryFolder;
    private final HikariDataSource pool;

    private DemoDatabase(Kind kind, String url, Path temporaryFolder, int poolSize) {
        this.kind = kind;
        this.url = url;
        this.temporaryFolder = temporaryFolder;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(poolSize);
        config.setPoolName("tablequeue-demo");
        if (kind == Kind.SQLITE) {
            // Writers take turns on SQLite; one that finds the database locked waits for its turn.
            config.setConnectionInitSql("PRAGMA busy_timeout = 10000");
        }
        this.pool = new HikariDataSource(config);
    }

    /**
     * Checks that {@code url} is a database the demo may write into: any SQLite file, or a server database
     * named in the URL that is not one the server keeps for itself.
     *
     * @throws IllegalArgumentException naming what is wrong and how to make a database of one's own
     */
    static void check(String url) {
        Kind kind = Kind.of(url);
        if (kind == Kind.SQLITE) {
            return;
        }
        Matcher m = SERVER_URL.matcher(url);
        String database = m.find() ? m.group(1) : "";
        if (database.isEmpty() || SERVER_DATABASES.contains(database.toLowerCase(Locale.ROOT))) {
            String example = kind == Kind.POSTGRES
                    ? "psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE tq_demo'\n  and pass --url"
                            + " jdbc:postgresql://127.0.0.1:5432/tq_demo?user=postgres"
                    : "mariadb -h 127.0.0.1 -u root -e 'CREATE DATABASE tq_demo'\n  and pass --url"
                            + " jdbc:mariadb://127.0.0.1:3306/tq_demo?user=root";
            throw new IllegalArgumentException("--url " + url + " names "
                    + (database.isEmpty() ? "no database" : "the server's own database \"" + database + "\"")
                    + ": the demo migrates its tables into the database the URL names, so name one of your own."
                    + " Create one, e.g.\n  " + example);
        }
    }

    /** Opens the database {@code url} names, or a fresh temporary SQLite file; a pool of {@code poolSize}. */
    static DemoDatabase open(Optional<String> url, int poolSize) {
        if (url.isPresent()) {
            check(url.get());
            return new DemoDatabase(Kind.of(url.get()), url.get(), null, poolSize);
        }
        try {
            Path folder = Files.createTempDirectory("tablequeue-demo-");
            // WAL lets readers run beside the writer, and NORMAL syncs at checkpoints rather than at every
            // commit: the usual settings of a service on SQLite, kept in this file only.
            String file = "jdbc:sqlite:" + folder.resolve("demo.db") + "?journal_mode=WAL&synchronous=NORMAL";
            return new DemoDatabase(Kind.SQLITE, file, folder, poolSize);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for the demo's SQLite file", e);
        }
    }

    Kind kind() {
        return kind;
    }

    HikariDataSource pool() {
        return pool;
    }

    /** The binding of {@code demo_jobs} on this database. */
    RoleBinding<?> binding() {
        return kind.binding;
    }

    /** The URL, and whether the file is a temporary one. */
    String describe() {
        return temporaryFolder == null ? url : url + " (a temporary file, deleted at the end)";
    }

    /** Applies this database's example migrations; returns how many it applied. */
    int migrate() {
        return Flyway.configure()
                .dataSource(pool)
                .locations("classpath:db/migration/" + kind.migrations)
                .load()
                .migrate()
                .migrationsExecuted;
    }

    /** Closes the pool and deletes a temporary file. */
    @Override
    public void close() {
        pool.close();
        if (temporaryFolder == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(temporaryFolder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the demo's temporary SQLite file in " + temporaryFolder, e);
        }
    }
}
