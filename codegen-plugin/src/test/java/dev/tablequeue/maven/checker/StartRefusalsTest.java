package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.maven.Protocol;
import dev.tablequeue.maven.Requests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The check refuses what the broker's start() refuses. {@link #SITES} lists every place in the toolkit and the
 * outbox that raises a refusal of the start's kinds ({@code SchemaException}, {@code DeclarationException},
 * {@code DialectException}, {@code ServerTooOldException}, {@code BindingException}), read from their sources, and
 * says of each whether the check raises it (proved by a case below, or by the named test), or why it leaves it
 * out. A new refusal in the toolkit fails {@link #every_refusal_start_can_raise_is_listed_with_what_the_check_does_with_it}
 * until it is listed here.
 */
class StartRefusalsTest {
    private static final String START = "dev.tablequeue.maven.startfixture.StartQueues.";
    private static final String RENDER = Requests.FIXTURE + ".FixtureQueues.RENDER";

    /** How the check treats one refusal of the start. */
    enum Scope {
        /** The check raises it: a case of {@link #proved()} shows it. */
        PROVED,
        /** The check raises it through the same code; the reason says why no case here makes it happen. */
        SHARED,
        /** The check leaves it out: the reason says why. */
        LEFT_OUT
    }

    record Site(Scope scope, String why) {}

    /** Every refusal site, by {@link #key}: its scope, and the case, the test or the reason. */
    static final Map<String, Site> SITES = new LinkedHashMap<>();

    private static void site(String key, Scope scope, String why) {
        SITES.put(key, new Site(scope, why));
    }

    static {
        // the binding's own build, in the constant's class initialiser
        site("RoleBinding: BindingException(qualified(table)", Scope.PROVED,
                "CheckerTest.a_binding_whose_class_does_not_initialise_is_a_violation_with_builds_refusal");
        site("RoleBinding: BindingException(tableName(), \"rows run in key order only on a table", Scope.LEFT_OUT,
                "inKeyOrder() is built for workersByKey(n) alone, a subscription's setting");
        site("OutboxBinding: BindingException(qualified(table)", Scope.SHARED, "an outbox binding constant that does not initialise is reported by the same scan as a"
                        + " RoleBinding's (BindingScanner), proved for RoleBinding");
        // StartRules: the rules the start and the check share
        site("StartRules: DeclarationException(user + \": an own fetch reads the ids an own claim", Scope.PROVED,
                "own fetch");
        site("StartRules: SchemaException(user + \": the \" + statement.purpose()",
                Scope.PROVED, "statement");
        site("StartRules: SchemaException(user + \": the default of the attempt column of table", Scope.SHARED,
                "the driver failing to read a column's default: no schema makes it happen");
        site("AttemptDefault: SchemaException(user + \": the attempt column \\\"\" + column + \"\\\" of table",
                Scope.PROVED, "attempt default");
        // a table with a unique key (uniqueKey(..), uniqueKeyWhilePending(..)): its index, at the start and a publish
        site("StartRules: SchemaException(user + \": \" + problem.get())", Scope.PROVED, "unique index");
        site("JooqQueueDialect: DialectException(name(), b.tableName(), \"the table declares a unique key, and",
                Scope.LEFT_OUT, "unreachable with the built-in dialects, which all publish into a table with a unique"
                        + " key; on a dialect of the service's own the check reports it as the dialect's refusal");
        site("StartRules: SchemaException(user + \": the unique indexes of table", Scope.SHARED,
                "the server failing to read the table's indexes: no schema makes it happen");
        site("BrokerInserts: SchemaException(\"publish: \" + problem.get())", Scope.LEFT_OUT,
                "a publish's, into a binding no route or subscription named (UniqueJobsContract proves it)");
        // the dialects' acceptance of a binding (validate) and their statement builders
        site("SqliteDialect: DialectException(name(), b.tableName(), \"SQLite has no row locks, so a table",
                Scope.PROVED, "row lock");
        site("SqliteDialect: DialectException(name(), b.tableName(), \"SQLite runs every transaction",
                Scope.PROVED, "isolation");
        site("SqliteDialect: DialectException(name(), b.tableName(), \"the \\\"claim\\\" statement is built",
                Scope.LEFT_OUT, "unreachable: validate refuses the row lock form on SQLite first");
        site("SqliteDialect: DialectException(name(), b.tableName(), \"the \\\"\" + statement + \"\\\" statement",
                Scope.LEFT_OUT, "unreachable: a builder of another form's statement, called only for that form");
        site("PostgresDialect: DialectException(name(), b.tableName(), \"Postgres runs READ UNCOMMITTED as",
                Scope.SHARED, "PostgreSQL's validate, which StartRules runs for the check as for the start; a case"
                        + " needs a PostgreSQL server (this test runs on SQLite alone)");
        site("MySqlDialect: DialectException(name(), b.tableName(), \"a row lock table with FIFO groups",
                Scope.SHARED, "MariaDB/MySQL's validate, run by StartRules for both; a case needs a MariaDB server");
        site("JooqPieces: DialectException(name(), b.tableName(), \"the name \\\"\" + n + \"\\\" is",
                Scope.SHARED, "the name-length rule of PostgreSQL's and MariaDB's validate, run by StartRules for"
                        + " both; SQLite has no limit, and a case needs a server");
        site("QueueDialect: DialectException(name(), binding.tableName(), \"the \" + binding.form().name().",
                Scope.SHARED, "requireForm, in validate: every built-in server dialect serves every form and SQLite"
                        + " refuses with its own rule (proved: row lock); a dialect of the service's own reaches it");
        site("QueueDialect: DialectException(name(), binding.tableName(), \"cannot open transactions at",
                Scope.SHARED, "requireOpening, in validate: on SQLite the isolation rule refuses first (proved);"
                        + " a SQLite mode on PostgreSQL or MariaDB reaches it, and needs a server");
        site("JooqQueueDialect: DialectException(name(), b.tableName(), \"a delayed retry needs a retryAfter",
                Scope.LEFT_OUT, "unreachable: the statement is built only for a table with a retryAfter column");
        site("JooqQueueDialect: DialectException(name(), b.tableName(), \"a dead letter into a group needs",
                Scope.LEFT_OUT, "unreachable: built only where the table has a group column (the check) or"
                        + " deadLetter(group) passed Declarations (the start)");
        site("StatementSettlements: DialectException(dialect.name(), table, refused.getOrDefault(kind, \"its subsc",
                Scope.LEFT_OUT, "unreachable: the runtime writes no kind its subscription cannot (a retry after a"
                        + " delay on a table with no retryAfter column returns the row at once, a dead letter"
                        + " undeclared drops it), and it is a write's, after the start");
        site("JooqClaimsDialect: DialectException(name(), b.tableName(), \"the advisory form claims by its cand",
                Scope.LEFT_OUT, "unreachable: the runtime asks an advisory table for its candidates and keys, never"
                        + " for a row lock or lease claim");
        site("JooqClaimsDialect: DialectException(name(), b.tableName(), \"a table of the \"",
                Scope.LEFT_OUT, "unreachable: the runtime asks only an advisory table for its keys");
        site("JooqClaimsDialect: DialectException(name(), b.tableName(), \"the row lock form needs a bound for",
                Scope.LEFT_OUT, "unreachable with the built-in dialects: each that serves the row lock form bounds a"
                        + " lock wait, and the others refuse the form first (requireForm)");
        site("StatementKeys: DialectException(dialect.name(), binding.tableName(), \"the advisory cla",
                Scope.LEFT_OUT, "unreachable: the runtime runs a lock and take or a walk only where the table's"
                        + " keys say they have one (locksAndTakes, walks)");
        site("StartRules: SchemaException(user + \": the advisory locks of table",
                Scope.LEFT_OUT, "unreachable where the check runs: only a database whose sessions hold no locks and"
                        + " that has no file (SQLite in memory) cannot keep them");
        site("StatementClaims: DialectException(dialect.name(), binding.tableName(), \"a table of the \" + bin",
                Scope.LEFT_OUT, "unreachable: a table's claims are built for its own form, and each form's runtime"
                        + " calls only its own claim");
        site("MySqlServer: ServerTooOldException(product(), reportedVersion, floor.version(), \"FOR UPDATE",
                Scope.SHARED, "raised by QueueDialects.detect, which the check calls on each database as the"
                        + " broker does; no server older than the floor is at hand");
        site("QueueNotifications: DialectException(database, String.join(\", \", channels), \"this database delive",
                Scope.LEFT_OUT, "listenNotify(), a broker's setting");
        site("QueueNotifications: DialectException(database, channel, \"this database sends no notifications\")",
                Scope.LEFT_OUT, "unreachable: a publish notifies only on a listenNotify() broker, which does not start"
                        + " on a database without notifications");
        // the outbox's start
        site("OutboxPreparation: SchemaException(\"outbox: the \" + statement.purpose() + \" statement of table",
                Scope.SHARED, "OutboxCheck prepares the same OutboxBinding.statements(dialect); proved by the invoker"
                        + " project outbox-dropped-column");
        site("Republisher: BindingException(b.tableName()", Scope.LEFT_OUT,
                "republishAfter(..) and retainProcessed(..), the outbox's settings");
        // not the start's, or not a binding's
        site("AdminStatements: DialectException(dialect.name(), binding.tableName(), \"the queue admin", Scope.LEFT_OUT,
                "QueueAdmin's, not the start's");
        site("AdminStatements: DialectException(dialect.name(), b.tableName(), why)", Scope.LEFT_OUT,
                "QueueAdmin's, not the start's");
        site("BrokerSettings: DeclarationException(\"the data source (\" + dataSource.getClass().getName()",
                Scope.LEFT_OUT, "the pool's size, not a binding's");
        // recurring jobs: the check finds a RecurringJob constant; a broker's own list of schedules it never sees
        String schedules = "a broker's list of schedules, which the check does not run (RecurringJobsContract"
                + " proves the start's refusal)";
        site("ScheduledJob: DeclarationException(user() + \" is refused: \" + why)", Scope.PROVED, "schedule");
        site("ScheduledJob: SchemaException(user() + \": the newest key of the schedule", Scope.LEFT_OUT,
                "a row's key at the start, not the schema's");
        site("Schedules: DeclarationException(\"this broker has a schedule named", Scope.LEFT_OUT, schedules);
        String retention = "a retention's, declared on a broker in code the check does not run (RetentionContract"
                + " proves the start's refusals)";
        for (String key : List.of(
                "RetentionStatements: DialectException(dialect.name(), b.tableName(), why)",
                "RetentionStatements: DialectException(dialect.name(), binding.tableName(), \"retention builds its s",
                "RetentionStatements: DialectException(dialect.name(), binding.tableName(), \"schedules \" + schedule",
                "Retentions: DeclarationException(r + \" ages acknowledged rows by their processedAt column, an",
                "Retentions: DeclarationException(r + \" declares dead-letter \" + g + \", and the binding names",
                "Retentions: DeclarationException(r + \": \" + what + \" is column \\\"\" + column.getName() + \"\\\",",
                "Retentions: DeclarationException(r + \": dead-letter table \\\"\" + t.table().getName() + \"\\\" has",
                "Retentions: SchemaException(r.retention + \": the \" + s.purpose() + \" statement does not")) {
            site(key, Scope.LEFT_OUT, retention);
        }
        // a subscription's settings, which the check never sees
        String settings = "a subscription's settings (Declarations), which the check never sees";
        for (String key : List.of(
                "Declarations: DeclarationException(where + \"rows() takes the rows of a row-mode table,",
                "Declarations: DeclarationException(where + \"payload(..) decodes a payload column, and",
                "Declarations: DeclarationException(where + \"a subscription by name (\\\"\" + mount.byName",
                "Declarations: DeclarationException(where + \"deadLetter(..) and deadLetterTable(..) are",
                "Declarations: DeclarationException(where + \"maxAttempts(\" + mount.maxAttempts + \") needs a",
                "Declarations: DeclarationException(where + \"a dead letter is declared without maxAttempts(n)\")",
                "Declarations: DeclarationException(where + \"maxAttempts(\" + mount.maxAttempts + \") counts",
                "Declarations: DeclarationException(where + \"deadLetter(\\\"\" + mount.deadLetterGroup + \"\\\")",
                "Declarations: DeclarationException(where + \"lease(..) is set on a table in the \" +",
                "Declarations: DeclarationException(where + \"transactional() serves single deliveries, and",
                "Declarations: DeclarationException(where + reason)",
                "Declarations: DeclarationException(where + reason) #2",
                "Declarations: DeclarationException(where + \"workersByKey(n) runs the rows of each partition",
                "Declarations: DeclarationException(where + \"workersByKey(n) is declared on table \\\"\" +",
                "Declarations: DeclarationException(where + \"workersByKey(n) needs the dialect's claim,",
                "Declarations: DeclarationException(reason)",
                "Declarations: DeclarationException(\"listenNotify() keeps one connection of the pool\" +")) {
            site(key, Scope.LEFT_OUT, settings);
        }
    }

    @TempDir
    Path work;

    private static final Pattern REFUSAL = Pattern.compile(
            "new (SchemaException|DeclarationException|DialectException|ServerTooOldException|BindingException)\\(");

    /**
     * The key of each refusal site in the sources under {@code roots}: the file's name, the exception and the start
     * of its arguments (to 60 characters or the statement's end), with {@code #2} and on for a repeated one.
     */
    static List<String> sites(Path... roots) throws IOException {
        List<String> keys = new java.util.ArrayList<>();
        for (Path root : roots) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(root)) {
                files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            }
            for (Path file : files) {
                String source = Files.readString(file);
                String name = file.getFileName().toString().replace(".java", "");
                Map<String, Integer> seen = new java.util.HashMap<>();
                Matcher m = REFUSAL.matcher(source);
                while (m.find()) {
                    String args = source.substring(m.end(), Math.min(source.length(), m.end() + 300))
                            .replaceAll("\\s+", " ").trim();
                    int end = args.indexOf(';');
                    args = args.substring(0, Math.min(end < 0 ? args.length() : end, 60)).trim();
                    String key = name + ": " + m.group(1) + "(" + args;
                    int n = seen.merge(key, 1, Integer::sum);
                    keys.add(n == 1 ? key : key + " #" + n);
                }
            }
        }
        return keys;
    }

    @Test
    void every_refusal_start_can_raise_is_listed_with_what_the_check_does_with_it() throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        List<String> found = sites(repository.resolve("toolkit/src/main/java"), repository.resolve("outbox/src/main/java"));

        // each site is listed by the start of its key; the longest listed start names it
        TreeSet<String> unlisted = new TreeSet<>();
        TreeSet<String> matched = new TreeSet<>();
        for (String key : found) {
            SITES.keySet().stream().filter(key::startsWith).max(java.util.Comparator.comparingInt(String::length))
                    .ifPresentOrElse(matched::add, () -> unlisted.add(key));
        }
        TreeSet<String> gone = new TreeSet<>(SITES.keySet());
        gone.removeAll(matched);
        assertThat(unlisted).as("refusals in the sources that this test does not list (add each to SITES)").isEmpty();
        assertThat(gone).as("refusals this test lists that the sources no longer have").isEmpty();
    }

    @Test
    void every_refusal_marked_proved_has_its_case() {
        List<String> cases = proved().map(a -> (String) a.get()[0]).toList();
        List<String> proved = SITES.entrySet().stream().filter(e -> e.getValue().scope() == Scope.PROVED)
                .filter(e -> !e.getValue().why().contains("Test.")).map(e -> e.getValue().why())
                .collect(Collectors.toList());
        assertThat(cases).containsExactlyInAnyOrderElementsOf(proved);
    }

    /** Each case: its name (a PROVED site's reason), the bindings checked, the migrations, and the violation's text. */
    static Stream<Arguments> proved() {
        return Stream.of(
                Arguments.of("attempt default", RENDER, "classpath:fixture/attempt-zero",
                        "start() refuses its subscriptions: the attempt column \"attempt\" of table \"fixture_jobs\""
                                + " defaults to 0"),
                Arguments.of("statement", RENDER, "classpath:fixture/no-lease-column",
                        "statement \"lease claim\": does not prepare: "),
                Arguments.of("own fetch", START + "OWN_FETCH", "classpath:fixture/sqlite",
                        "start() refuses its subscriptions: an own fetch reads the ids an own claim returns"),
                Arguments.of("row lock", START + "ROW_LOCK", "classpath:fixture/sqlite", "SQLite has no row locks"),
                Arguments.of("unique index", START + "UNIQUE_KEY", "classpath:fixture/sqlite",
                        "start() refuses its subscriptions and publishes (the insert writes [payload,"
                                + " locked_until]): table \"fixture_jobs\" has no unique index on column \"locked_until\""),
                Arguments.of("schedule", START + "SCHEDULE", "classpath:fixture/sqlite",
                        "start() refuses schedule \"sweep\" (every PT5M) into table \"fixture_jobs\" is refused: its"
                                + " binding declares no unique key"),
                Arguments.of("isolation", START + "ISOLATION", "classpath:fixture/sqlite",
                        "SQLite runs every transaction serializable"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("proved")
    void the_check_raises_the_refusal_the_start_raises(String refusal, String bindings, String location,
            String violation) throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, location, false, bindings));

        assertThat(report).as(refusal).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR, bindings + " on sqlite"))
                && l.contains(violation));
        assertThat(report.get(report.size() - 1)).startsWith(Protocol.line(Protocol.RESULT, "")).doesNotEndWith(" 0 0");
    }

    @Test
    void a_queue_table_whose_attempt_column_defaults_to_0_fails_the_check_as_it_fails_the_start() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, "classpath:fixture/attempt-zero"));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR, RENDER + " on sqlite: table"
                + " \"fixture_jobs\"")) && l.contains("the attempt column \"attempt\"") && l.contains("defaults to 0"));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "1 0"));
    }
}
