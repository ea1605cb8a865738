package dev.tablequeue.test;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that gives a test class a database of its own: created before the class's first test,
 * migrated with Flyway from the service's own migrations, and dropped after its last. Register it in a static
 * field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TableQueueDatabase db = TableQueueDatabase.on(Engine.POSTGRES)
 *         .migrations("classpath:db/migration/postgresql")
 *         .build();
 * }</pre>
 *
 * <p>The server comes from the engine's variable ({@code TABLEQUEUE_POSTGRES_URL}, {@code TABLEQUEUE_MARIADB_URL},
 * {@code TABLEQUEUE_MYSQL_URL}: an administrative JDBC URL), else from the system property of the same name in
 * lower case with dots ({@code tablequeue.postgres.url}), else from a Testcontainers container started once per
 * JVM where a Docker engine answers. Where none gives a server, or the one named cannot be reached, the class
 * fails with a message that names the variable, the system property and the Testcontainers option, so that a
 * build never passes with its queue tests unrun. Skipping is an opt-in: where {@code TABLEQUEUE_SKIP_UNREACHABLE=1}
 * (or the system property {@code tablequeue.skip.unreachable=true}), such a class is reported skipped, and the
 * reason is printed on the error stream, class by class; {@code TABLEQUEUE_REQUIRE_LIVE=1} vetoes the opt-in.
 * SQLite needs no server: a fresh file in a temporary folder.
 *
 * <p>It sets the system property {@value #TEST_KIT_PROPERTY} to {@code true} (where it is not set), so the
 * outbox, under the kit, passes messages untracked unless {@code TABLEQUEUE_OUTBOX=on}.
 *
 * <p>The database is named {@code <prefix>kit_<class>_<random>}, the prefix {@code TABLEQUEUE_DB_PREFIX} or
 * {@code tq_}, so classes that run side by side, or builds on one server, do not meet.
 */
public final class TableQueueDatabase implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {
    private final Engine engine;
    private final List<String> migrations;
    private final Map<String, String> placeholders;
    private final int poolSize;
    private final String image;
    private final Finder finder;
    private final BooleanSupplier skipUnreachable;

    private volatile Open open;

    /** Finds the server for an engine and image (the kit's own tests give one that finds none). */
    @FunctionalInterface
    interface Finder {
        Servers.Server find(Engine engine, String image);
    }

    /** What the extension made for the class under way. */
    private record Open(FreshDatabase database, HikariDataSource pool, int migrationsApplied) {}

    private TableQueueDatabase(Builder b) {
        this.engine = b.engine;
        this.migrations = List.copyOf(b.migrations);
        this.placeholders = Map.copyOf(b.placeholders);
        this.poolSize = b.poolSize;
        this.image = b.image == null ? engine.defaultImage() : b.image;
        this.finder = b.finder;
        this.skipUnreachable = b.skipUnreachable;
    }

    /** Starts an extension for a database on {@code engine}. */
    public static Builder on(Engine engine) {
        return new Builder(engine);
    }

    /**
     * The system property that tells tablequeue's modules they run under the test kit: the outbox is then off
     * (its middlewares pass every message untouched) unless {@code TABLEQUEUE_OUTBOX=on}.
     */
    public static final String TEST_KIT_PROPERTY = "tablequeue.testkit";

    /**
     * Where skipping is opted into, a class whose server cannot be found or reached is disabled before it starts:
     * JUnit reports it skipped, with the reason, which is also printed on the error stream. (An aborted
     * {@code beforeAll} would report no test at all.) Without the opt-in every class is enabled, and
     * {@link #beforeAll} fails the one whose server is missing.
     */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (engine == Engine.SQLITE || context.getTestMethod().isPresent() || !skipUnreachable.getAsBoolean()) {
            return ConditionEvaluationResult.enabled("a missing " + engine + " server fails the class");
        }
        String why;
        try {
            Servers.Server server = finder.find(engine, image);
            try (Connection c = DriverManager.getConnection(server.adminUrl())) {
                return ConditionEvaluationResult.enabled("the " + engine + " server of " + server.origin() + " answers");
            } catch (SQLException e) {
                why = "cannot connect to the " + engine + " server of " + server.origin() + " ("
                        + FreshDatabase.redacted(server.adminUrl()) + "): " + e.getMessage();
            }
        } catch (Servers.NoServer e) {
            why = e.getMessage();
        }
        return ConditionEvaluationResult.disabled(MissingServer.skipped(context.getDisplayName(), why));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (System.getProperty(TEST_KIT_PROPERTY) == null) {
            System.setProperty(TEST_KIT_PROPERTY, "true");
        }
        if (open != null) {
            throw new IllegalStateException("a TableQueueDatabase serves one test class at a time: register it in a"
                    + " static field of each class (it was still open for another when "
                    + context.getDisplayName() + " started)");
        }
        String name = name(context.getRequiredTestClass());
        Open made;
        if (engine == Engine.SQLITE) {
            FreshDatabase file = FreshDatabase.sqlite(name);
            made = new Open(file, file.pool(poolSize), 0);
        } else {
            made = onServer(name, context);
        }
        try {
            open = migrate(made);
        } catch (RuntimeException e) {
            drop(made);
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Open was = open;
        open = null;
        if (was != null) {
            drop(was);
        }
    }

    private String name(Class<?> testClass) {
        String simple = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        String random = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000, 0x100000));
        String head = (FreshDatabase.prefix() + "kit_").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        // PostgreSQL keeps 63 bytes of a name and MySQL 64: the class name gives way
        int room = 60 - head.length() - random.length() - 1;
        return head + simple.substring(0, Math.max(0, Math.min(simple.length(), room))) + "_" + random;
    }

    private Open onServer(String name, ExtensionContext context) {
        Servers.Server server;
        try {
            server = finder.find(engine, image);
        } catch (Servers.NoServer e) {
            throw unavailable(context, e.getMessage(), e);
        }
        try {
            FreshDatabase made = FreshDatabase.onServer(engine, name, server);
            return new Open(made, made.pool(poolSize), 0);
        } catch (SQLException e) {
            throw unavailable(context, FreshDatabase.refused(engine, name, server, e), e);
        }
    }

    private RuntimeException unavailable(ExtensionContext context, String why, Exception cause) {
        return MissingServer.outcome(context.getDisplayName(), engine, why, cause, skipUnreachable.getAsBoolean());
    }

    private Open migrate(Open made) {
        if (migrations.isEmpty()) {
            return made;
        }
        try {
            MigrateResult result = Flyway.configure(TableQueueDatabase.class.getClassLoader())
                    .dataSource(made.pool())
                    .locations(migrations.toArray(String[]::new))
                    .placeholders(placeholders)
                    .failOnMissingLocations(true)
                    .load()
                    .migrate();
            return new Open(made.database(), made.pool(), result.migrationsExecuted);
        } catch (RuntimeException e) {
            throw new IllegalStateException("the migrations " + migrations + " did not apply to " + engine
                    + " database " + made.database().name() + ": " + e.getMessage(), e);
        }
    }

    private static void drop(Open was) {
        try {
            was.pool().close();
        } finally {
            was.database().close();
        }
    }

    private Open current() {
        Open o = open;
        if (o == null) {
            throw new IllegalStateException("the " + engine + " database is made before a test class's first test and"
                    + " dropped after its last: register the extension in a static field with @RegisterExtension, and"
                    + " use it from the tests (or @BeforeAll methods) of that class");
        }
        return o;
    }

    /** The engine. */
    public Engine engine() {
        return engine;
    }

    /** The database's name (SQLite: the file's name without {@code .db}). */
    public String name() {
        return current().database().name();
    }

    /** The database's JDBC URL. */
    public String url() {
        return current().database().url();
    }

    /** Where the server came from: the variable or property that named it, the container's image, or the file. */
    public String origin() {
        return current().database().origin();
    }

    /** How many migrations Flyway applied to the fresh database. */
    public int migrationsApplied() {
        return current().migrationsApplied();
    }

    /** A HikariCP pool on the database, of the size the builder set; closed after the class. */
    public DataSource dataSource() {
        return current().pool();
    }

    /** A jOOQ context on {@link #dataSource()}, in the engine's dialect. */
    public DSLContext dsl() {
        return DSL.using(dataSource(), engine.sqlDialect());
    }

    @Override
    public String toString() {
        Open o = open;
        return "TableQueueDatabase[" + engine + (o == null ? "" : ", " + o.database().name() + " from " + o.database().origin()) + "]";
    }

    /** Sets up a {@link TableQueueDatabase}. */
    public static final class Builder {
        private final Engine engine;
        private final List<String> migrations = new ArrayList<>();
        private final Map<String, String> placeholders = new LinkedHashMap<>();
        private int poolSize = 10;
        private String image;
        private Finder finder = Servers::find;
        private BooleanSupplier skipUnreachable = MissingServer::skipOptedIn;

        private Builder(Engine engine) {
            this.engine = Objects.requireNonNull(engine, "engine");
        }

        /**
         * The Flyway locations to migrate the fresh database from ({@code classpath:db/migration/postgresql},
         * {@code filesystem:src/main/resources/db/migration}); none: the database stays empty. A location that
         * does not exist fails the class.
         */
        public Builder migrations(String... locations) {
            migrations.addAll(List.of(locations));
            return this;
        }

        /** A Flyway placeholder the migrations use. */
        public Builder placeholder(String name, String value) {
            placeholders.put(name, value);
            return this;
        }

        /** The connections of {@link #dataSource()}'s pool (default 10). */
        public Builder poolSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("a pool needs at least one connection, not " + size);
            }
            this.poolSize = size;
            return this;
        }

        /** The image of the container started where no URL is set (default: {@link Engine#defaultImage()}). */
        public Builder image(String image) {
            if (engine == Engine.SQLITE) {
                throw new IllegalArgumentException("SQLite runs in no container, so it takes no image");
            }
            this.image = Objects.requireNonNull(image, "image");
            return this;
        }

        /** For the kit's own tests: how the server is found, and whether a missing one is skipped (not failed). */
        Builder finding(Finder finder, BooleanSupplier skipUnreachable) {
            this.finder = finder;
            this.skipUnreachable = skipUnreachable;
            return this;
        }

        public TableQueueDatabase build() {
            return new TableQueueDatabase(this);
        }
    }
}
