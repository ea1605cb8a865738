package dev.tablequeue.maven.checker;

import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.maven.Protocol;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/**
 * The check itself, run in a JVM of the project's JDK 21+, in the goal's {@code CheckerLoader}: finds the
 * bindings, then on each configured database makes a scratch database, migrates it with Flyway, checks every
 * selected binding on it ({@link BindingCheck}) and drops it. It writes its report as {@link Protocol} lines.
 */
public final class Checker {
    private final CheckConfig config;
    private final Findings findings;

    private Checker(CheckConfig config, Findings findings) {
        this.config = config;
        this.findings = findings;
    }

    /** Runs the check that {@code request} describes, writing the report's lines to {@code out}. */
    public static void run(Path request, Consumer<String> out) throws Exception {
        Findings findings = new Findings(out);
        new Checker(CheckConfig.read(request), findings).check();
        findings.end();
    }

    private void check() {
        List<Selection> selections = config.databases().stream().map(CheckConfig.DatabaseConfig::selection).toList();
        BindingScanner.Scan scan = BindingScanner.scan(config.classes(), Thread.currentThread().getContextClassLoader(),
                selections);
        for (BindingScanner.Broken broken : scan.broken()) {
            findings.violation(broken.className() + "." + String.join(", ", broken.constants()) + ": the binding"
                    + " does not initialise: " + broken.cause());
        }
        findings.info("found " + scan.bindings().size() + " binding(s)"
                + (scan.schedules().isEmpty() ? "" : ", " + scan.schedules().size() + " recurring job(s)")
                + (scan.outboxes().isEmpty() ? "" : " and " + scan.outboxes().size() + " outbox binding(s)")
                + " in " + scan.classes() + " classes of " + config.classes());
        for (int i = 0; i < config.databases().size(); i++) {
            CheckConfig.DatabaseConfig database = config.databases().get(i);
            List<BindingScanner.Found> selected = scan.bindings().stream()
                    .filter(f -> database.selection().selects(f.label())).toList();
            List<BindingScanner.FoundSchedule> schedules = scan.schedules().stream()
                    .filter(f -> database.selection().selects(f.label())).toList();
            List<BindingScanner.FoundOutbox> outboxes = scan.outboxes().stream()
                    .filter(f -> database.selection().selects(f.label())).toList();
            Scratch scratch = null;
            try {
                scratch = open(database, i);
                if (scratch != null) {
                    check(database, scratch, selected, schedules, outboxes);
                }
            } catch (CheckFailure e) {
                findings.violation(e.getMessage());
            } catch (RuntimeException e) {
                findings.violation("database " + name(database, i) + ": " + e);
            } finally {
                if (scratch != null) {
                    close(scratch);
                }
            }
        }
    }

    private void close(Scratch scratch) {
        try {
            scratch.close();
            if (scratch instanceof ServerScratch server) {
                findings.info(scratch.label() + ": scratch database " + server.name() + " dropped");
            }
        } catch (RuntimeException e) {
            findings.violation(scratch.label() + ": " + e.getMessage());
        }
    }

    /** The scratch database of {@code database}, or null where an optional server cannot be reached. */
    private Scratch open(CheckConfig.DatabaseConfig database, int index) {
        if (database.container() != null) {
            return ContainerScratch.start(database.id(), database.container());
        }
        if (database.url() == null) {
            return SqliteScratch.create(database.id() == null ? "sqlite" + (index == 0 ? "" : "-" + index) : database.id(),
                    config.work());
        }
        ServerScratch.Kind kind = ServerScratch.kind(database.url());
        String label = database.id() == null ? kind.scheme : database.id();
        try {
            ServerScratch scratch = ServerScratch.create(label, database.url());
            findings.info(label + ": scratch database " + scratch.name() + " made on " + Scratch.redacted(database.url()));
            return scratch;
        } catch (SQLException e) {
            String why = label + " at " + Scratch.redacted(database.url()) + " cannot be reached or refuses a scratch"
                    + " database: " + e.getMessage();
            if (database.optional()) {
                findings.skipped(why + " (skipped: the database is optional)");
                return null;
            }
            throw new CheckFailure(why);
        }
    }

    private void check(CheckConfig.DatabaseConfig database, Scratch scratch, List<BindingScanner.Found> selected,
            List<BindingScanner.FoundSchedule> schedules, List<BindingScanner.FoundOutbox> outboxes) {
        for (String java : Migrations.javaMigrations(database.locations(), Thread.currentThread().getContextClassLoader())) {
            findings.warning(scratch.label() + ": the Java-based migration " + java + " is not run by the check, which"
                    + " applies the SQL migrations alone with a Flyway of its own: what it changes is missing from"
                    + " the checked schema (see the plugin's docs, \"Isolation and versions\")");
        }
        try {
            int applied = Migrations.migrate(scratch.url(), database.locations(), database.placeholders(),
                    findings::debug);
            findings.info(scratch.label() + ": " + applied + " migration(s) applied from " + database.locations());
        } catch (RuntimeException e) {
            findings.violation(scratch.label() + ": the migrations at " + database.locations() + " do not apply: "
                    + e.getMessage());
            return;
        }
        try (Connection connection = Jdbc.connect(scratch.url())) {
            var dialect = QueueDialects.detect(connection);
            SchemaDialect schemaDialect = SchemaDialect.of(dialect);
            Target target = new Target(scratch.label(), dialect, schemaDialect,
                    new SchemaReader(connection, schemaDialect), connection);
            if (selected.isEmpty() && schedules.isEmpty() && outboxes.isEmpty()) {
                findings.info(scratch.label() + ": no binding is selected for this database");
            }
            for (BindingScanner.Found found : selected) {
                new BindingCheck(found, target, findings).run(deadLetterTable(found.label()));
            }
            for (BindingScanner.FoundSchedule found : schedules) {
                new ScheduleCheck(found, target, findings).run();
            }
            for (BindingScanner.FoundOutbox found : outboxes) {
                new OutboxCheck(found, target, findings).run();
            }
        } catch (SQLException e) {
            findings.violation(scratch.label() + ": the check cannot read the migrated database: " + e.getMessage());
        }
    }

    /** The dead-letter table configured for the binding {@code label}, the most specific name first. */
    private String deadLetterTable(String label) {
        String table = null;
        int best = -1;
        for (CheckConfig.DeadLetterConfig d : config.deadLetters()) {
            if (Selection.names(d.binding(), label) && d.binding().length() > best) {
                table = d.table();
                best = d.binding().length();
            }
        }
        return table;
    }

    private static String name(CheckConfig.DatabaseConfig database, int index) {
        if (database.id() != null) {
            return database.id();
        }
        return database.url() != null ? Scratch.redacted(database.url())
                : database.container() != null ? database.container() : "sqlite " + (index + 1);
    }
}
