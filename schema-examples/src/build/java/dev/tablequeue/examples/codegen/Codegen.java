package dev.tablequeue.examples.codegen;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
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
 * Migrates a scratch SQLite file with the example Flyway migrations and generates from it the one set of jOOQ
 * classes that serves every database the examples run on.
 *
 * <p>The build runs this file in Java's source-file mode ({@code java -classpath .. Codegen.java}) through
 * exec-maven-plugin, on the toolchain's JDK: jOOQ 3.21 needs Java 21 and Maven may run on an older one, so
 * no jOOQ or Flyway code may run inside Maven. SQLite is embedded, so every build generates the classes
 * (under {@code target/}) without a server. The SQLite migrations declare the same tables, columns, types
 * and nullability as the PostgreSQL and MariaDB ones; where the databases keep a value in types of their
 * own (times, JSON), the forced types below declare one Java type and a binding that writes and reads it in
 * the type of the database at hand ({@code PortableTime}, {@code PortableJson}). A test per server checks
 * that its migrations agree with the classes.
 *
 * <p>Arguments: {@code <module dir> <build dir>}.
 */
public final class Codegen {

    /** The package of the generated classes. */
    public static final String PACKAGE = "dev.tablequeue.examples.jooq";

    /** A database the examples keep migrations for. */
    public enum Flavour {
        SQLITE("sqlite"),
        POSTGRES("postgresql"),
        MARIADB("mariadb");

        private final String folder;

        Flavour(String folder) {
            this.folder = folder;
        }

        /** The classpath location of this database's migrations, as Flyway takes it. */
        public String classpathLocation() {
            return "classpath:db/migration/" + folder;
        }
    }

    // The time columns (retry_after, processed_at, locked_until, any *_at / *_until), which SQLite keeps as
    // TEXT: OffsetDateTime through PortableTime on every database.
    private static final String TIME_COLUMNS = ".*\\.([a-z_]*_at|[a-z_]*_until|retry_after)";

    // The JSON columns (the outbox's headers), TEXT on SQLite: JSONB through PortableJson on every database.
    private static final String JSON_COLUMNS = ".*\\.headers";

    // An INTEGER PRIMARY KEY is SQLite's 64-bit rowid; jOOQ would read INTEGER as a Java int.
    private static final String ROWID_COLUMNS = ".*\\.(id|job_id)";

    private Codegen() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: Codegen <module dir> <build dir>");
        }
        // exec:exec takes `java` from the selected toolchain; say so loudly if it ever does not.
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("jOOQ 3.21 needs Java 21+, and this is Java " + Runtime.version());
        }
        generateSqlite(Path.of(args[0]), Path.of(args[1]));
    }

    /**
     * Generates the classes from a scratch SQLite file under {@code build}, unless the last generation had the
     * same inputs: the SQLite migrations, this file and the class path (which names the jOOQ version).
     */
    private static void generateSqlite(Path module, Path build) throws Exception {
        Path out = build.resolve("generated-sources/jooq");
        Path stamp = build.resolve("codegen/sqlite.sha256");
        String inputs = fingerprint(module);
        if (Files.isDirectory(out.resolve(PACKAGE.replace('.', '/')))
                && Files.exists(stamp) && Files.readString(stamp).equals(inputs)) {
            return;
        }
        Path scratch = build.resolve("codegen/examples.db");
        Files.createDirectories(scratch.getParent());
        Files.deleteIfExists(scratch);
        String url = "jdbc:sqlite:" + scratch;
        migrate(url, filesystemLocation(module, Flavour.SQLITE));
        generate(url, out);
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
     * Generates the classes of every table of the SQLite file at {@code url} (but Flyway's history) into
     * {@code directory}, in {@link #PACKAGE}, replacing what that package held.
     */
    public static void generate(String url, Path directory) throws Exception {
        Database database = new Database()
                .withName("org.jooq.meta.sqlite.SQLiteDatabase")
                .withIncludes(".*")
                .withExcludes("flyway_schema_history|sqlite_sequence")
                .withForcedTypes(
                        new ForcedType()
                                .withName("TIMESTAMPWITHTIMEZONE")
                                .withUserType("java.time.OffsetDateTime")
                                .withBinding("dev.tablequeue.examples.types.PortableTime")
                                .withIncludeExpression(TIME_COLUMNS)
                                .withIncludeTypes("TEXT"),
                        new ForcedType()
                                .withName("JSONB")
                                .withUserType("org.jooq.JSONB")
                                .withBinding("dev.tablequeue.examples.types.PortableJson")
                                .withIncludeExpression(JSON_COLUMNS)
                                .withIncludeTypes("TEXT"),
                        new ForcedType()
                                .withName("BIGINT")
                                .withIncludeExpression(ROWID_COLUMNS)
                                .withIncludeTypes("INTEGER"));
        try (Connection connection = DriverManager.getConnection(url)) {
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
                                    .withPackageName(PACKAGE)
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
}
