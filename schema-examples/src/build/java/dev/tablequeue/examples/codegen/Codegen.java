package dev.tablequeue.examples.codegen;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.jooq.codegen.GenerationTool;
import org.jooq.meta.jaxb.Configuration;
import org.jooq.meta.jaxb.Database;
import org.jooq.meta.jaxb.ForcedType;
import org.jooq.meta.jaxb.Generate;
import org.jooq.meta.jaxb.Generator;
import org.jooq.meta.jaxb.Logging;
import org.jooq.meta.jaxb.Target;

/**
 * Migrates a scratch database with the example Flyway migrations and generates jOOQ classes from it.
 *
 * <p>The build runs this file in Java's source-file mode ({@code java -classpath .. Codegen.java}) through
 * exec-maven-plugin, on the toolchain's JDK: jOOQ 3.21 needs Java 21 and Maven may run on an older one, so
 * no jOOQ or Flyway code may run inside Maven. Each build generates the SQLite classes from a scratch file
 * under {@code target/}. The PostgreSQL and MariaDB classes need a server, so they are generated on demand
 * ({@code --servers=postgres,mariadb}) into {@code src/main/java} and committed; a drift test compiles this
 * same class and checks that a fresh generation still equals the committed one.
 *
 * <p>Arguments: {@code <module dir> <build dir> [--servers=postgres,mariadb]}.
 */
public final class Codegen {

    /** A database the examples generate classes for. */
    public enum Flavour {
        SQLITE("sqlite", "org.jooq.meta.sqlite.SQLiteDatabase", "dev.tablequeue.examples.jooq.sqlite", null),
        POSTGRES("postgresql", "org.jooq.meta.postgres.PostgresDatabase", "dev.tablequeue.examples.jooq.postgres",
                "TABLEQUEUE_POSTGRES_URL"),
        MARIADB("mariadb", "org.jooq.meta.mariadb.MariaDBDatabase", "dev.tablequeue.examples.jooq.mariadb",
                "TABLEQUEUE_MARIADB_URL");

        private final String folder;
        private final String metaDatabase;
        private final String packageName;
        private final String adminVariable;

        Flavour(String folder, String metaDatabase, String packageName, String adminVariable) {
            this.folder = folder;
            this.metaDatabase = metaDatabase;
            this.packageName = packageName;
            this.adminVariable = adminVariable;
        }

        /** The package the generated classes live in. */
        public String packageName() {
            return packageName;
        }

        /** The classpath location of this database's migrations, as Flyway takes it. */
        public String classpathLocation() {
            return "classpath:db/migration/" + folder;
        }
    }

    // SQLite keeps times as text in SqliteTime's layout; these columns read and write as OffsetDateTime.
    // Matched by name (retry_after, processed_at, locked_until, any *_at / *_until) and declared type TEXT.
    private static final String SQLITE_TIME_COLUMNS = ".*\\.([a-z_]*_at|[a-z_]*_until|retry_after)";

    // An INTEGER PRIMARY KEY is SQLite's 64-bit rowid; jOOQ would read INTEGER as a Java int.
    private static final String SQLITE_ROWID_COLUMNS = ".*\\.(id|job_id)";

    private Codegen() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: Codegen <module dir> <build dir> [--servers=postgres,mariadb]");
        }
        // exec:exec takes `java` from the selected toolchain; say so loudly if it ever does not.
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("jOOQ 3.21 needs Java 21+, and this is Java " + Runtime.version());
        }
        Path module = Path.of(args[0]);
        Path build = Path.of(args[1]);
        List<Flavour> servers = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            if (!args[i].startsWith("--servers=")) {
                throw new IllegalArgumentException("unknown argument " + args[i]);
            }
            for (String name : args[i].substring("--servers=".length()).split(",")) {
                if (!name.isBlank()) {
                    servers.add(Flavour.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                }
            }
        }

        generateSqlite(module, build);

        for (Flavour server : servers) {
            regenerateCommitted(server, module);
        }
    }

    /**
     * Generates the SQLite classes from a scratch file under {@code build}, unless the last generation had the
     * same inputs: the SQLite migrations, this file and the class path (which names the jOOQ version).
     */
    private static void generateSqlite(Path module, Path build) throws Exception {
        Path out = build.resolve("generated-sources/jooq");
        Path stamp = build.resolve("codegen/sqlite.sha256");
        String inputs = fingerprint(module);
        if (Files.isDirectory(out.resolve(Flavour.SQLITE.packageName.replace('.', '/')))
                && Files.exists(stamp) && Files.readString(stamp).equals(inputs)) {
            return;
        }
        Path scratch = build.resolve("codegen/examples.db");
        Files.createDirectories(scratch.getParent());
        Files.deleteIfExists(scratch);
        String url = "jdbc:sqlite:" + scratch;
        migrate(url, filesystemLocation(module, Flavour.SQLITE));
        generate(Flavour.SQLITE, url, out);
        Files.writeString(stamp, inputs);
    }

    private static String fingerprint(Path module) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        Path migrations = module.resolve("src/main/resources/db/migration/" + Flavour.SQLITE.folder);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(migrations)) {
            walk.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        files.add(module.resolve("src/build/java/dev/tablequeue/examples/codegen/Codegen.java"));
        for (Path file : files) {
            sha.update(file.toString().getBytes(StandardCharsets.UTF_8));
            sha.update(Files.readAllBytes(file));
        }
        sha.update(System.getProperty("java.class.path").getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * Applies the migrations at {@code location} (a Flyway location) to the database at {@code url} and
     * returns how many it applied.
     */
    public static int migrate(String url, String location) {
        return Flyway.configure()
                .dataSource(url, null, null)
                .locations(location)
                .load()
                .migrate()
                .migrationsExecuted;
    }

    /**
     * Generates the classes of every table of the database at {@code url} (but Flyway's history) into
     * {@code directory}, in {@code flavour}'s package, replacing what that package held.
     */
    public static void generate(Flavour flavour, String url, Path directory) throws Exception {
        Database database = new Database()
                .withName(flavour.metaDatabase)
                .withIncludes(".*")
                .withExcludes("flyway_schema_history|sqlite_sequence");
        try (Connection connection = DriverManager.getConnection(url)) {
            switch (flavour) {
                // Generate against the default schema, so table references carry no schema or database name
                // and the classes serve a database of any name.
                case POSTGRES -> database.withInputSchema("public").withOutputSchemaToDefault(true);
                case MARIADB -> database.withInputSchema(connection.getCatalog()).withOutputSchemaToDefault(true);
                case SQLITE -> database.withForcedTypes(
                        new ForcedType()
                                .withUserType("java.time.OffsetDateTime")
                                .withConverter("dev.tablequeue.dialect.SqliteTime")
                                .withIncludeExpression(SQLITE_TIME_COLUMNS)
                                .withIncludeTypes("TEXT"),
                        new ForcedType()
                                .withName("BIGINT")
                                .withIncludeExpression(SQLITE_ROWID_COLUMNS)
                                .withIncludeTypes("INTEGER"));
            }
            Configuration configuration = new Configuration()
                    .withLogging(Logging.WARN)
                    .withGenerator(new Generator()
                            .withDatabase(database)
                            .withGenerate(new Generate()
                                    .withGeneratedAnnotation(false)
                                    .withJavaTimeTypes(true)
                                    .withRecords(true)
                                    .withPojos(false)
                                    .withDaos(false))
                            .withTarget(new Target()
                                    .withPackageName(flavour.packageName)
                                    .withDirectory(directory.toString())
                                    .withEncoding("UTF-8")
                                    .withClean(true)));
            GenerationTool tool = new GenerationTool();
            tool.setConnection(connection);
            tool.run(configuration);
        }
    }

    /** The filesystem location of {@code flavour}'s migrations: at generate-sources no resource is copied yet. */
    public static String filesystemLocation(Path module, Flavour flavour) {
        return "filesystem:" + module.resolve("src/main/resources/db/migration/" + flavour.folder);
    }

    /** Generates {@code server}'s committed classes into the module's sources from a fresh database. */
    private static void regenerateCommitted(Flavour server, Path module) throws Exception {
        String admin = System.getenv(server.adminVariable);
        if (admin == null || admin.isBlank()) {
            admin = server == Flavour.POSTGRES
                    ? "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres"
                    : "jdbc:mariadb://127.0.0.1:3306/?user=root";
        }
        String name = "tq_codegen_" + server.name().toLowerCase(Locale.ROOT);
        String drop = "DROP DATABASE IF EXISTS " + name + (server == Flavour.POSTGRES ? " WITH (FORCE)" : "");
        run(admin, drop, "CREATE DATABASE " + name);
        try {
            String url = withDatabase(admin, name);
            migrate(url, filesystemLocation(module, server));
            generate(server, url, module.resolve("src/main/java"));
        } finally {
            run(admin, drop);
        }
        System.out.println("Regenerated " + server.packageName + " into " + module.resolve("src/main/java"));
    }

    private static void run(String url, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static String withDatabase(String admin, String db) {
        Matcher m = Pattern.compile("^(jdbc:[a-z]+://[^/?]+)(/[^?]*)?(\\?.*)?$").matcher(admin);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a JDBC server URL: " + admin);
        }
        return m.group(1) + "/" + db + (m.group(3) == null ? "" : m.group(3));
    }
}
