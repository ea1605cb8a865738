package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.maven.CheckRequest;
import dev.tablequeue.maven.Protocol;
import dev.tablequeue.maven.Requests;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the checker reports of bindings and databases it cannot check. */
class CheckerTest {
    private static final String SCHEDULES = "dev.tablequeue.maven.schedulefixture";

    /** A port nothing listens on. */
    private static final String UNREACHABLE = "jdbc:postgresql://127.0.0.1:1/postgres?user=postgres&connectTimeout=2";

    @TempDir
    Path work;

    @Test
    void a_binding_whose_class_does_not_initialise_is_a_violation_with_builds_refusal() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, "classpath:fixture/sqlite", false,
                "dev.tablequeue.maven.brokenfixture"));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR,
                "dev.tablequeue.maven.brokenfixture.BrokenQueues.BROKEN: the binding does not initialise: "))
                && l.contains("no_such_column"));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "1 0"));
    }

    @Test
    void a_recurring_job_constant_is_found_and_its_table_checked_for_the_schedule() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, "classpath:fixture/schedule", false,
                SCHEDULES));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.INFO,
                "found 1 binding(s), 1 recurring job(s) in ")));
        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.INFO, SCHEDULES + ".Reports.NIGHTLY on"
                + " sqlite: table \"report_jobs\": schedule \"nightly-report\"")) && l.contains("checked"));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "0 0"));
    }

    @Test
    void a_recurring_job_whose_table_lacks_the_unique_index_fails_naming_the_schedule() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, "classpath:fixture/schedule-no-index",
                false, SCHEDULES + ".Reports.NIGHTLY"));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR, SCHEDULES + ".Reports.NIGHTLY on"
                + " sqlite: table \"report_jobs\": start() refuses")) && l.contains("schedule \"nightly-report\"")
                && l.contains("has no unique index on column \"job_key\""));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "1 0"));
    }

    @Test
    void flyway_placeholders_reach_the_migrations() throws Exception {
        Path file = Requests.write(work, null, null, "classpath:fixture/placeholder");
        CheckRequest request = CheckRequest.read(file);
        request.putMap("placeholder", Map.of("table", "fixture_jobs"));
        request.write(file);

        List<String> report = CheckerRun.run(file);

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.INFO, Requests.FIXTURE
                + ".FixtureQueues.RENDER on sqlite: table \"fixture_jobs\": 9 statements prepared")));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "0 0"));
    }

    @ParameterizedTest(name = "optional: {0}")
    @CsvSource({"true, SKIP, 0 0", "false, ERROR, 1 0"})
    void a_server_that_cannot_be_reached_fails_the_check_unless_it_is_optional_then_it_is_skipped_aloud(
            boolean optional, String level, String result) throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, UNREACHABLE, null, "classpath:fixture/broken",
                optional, Requests.FIXTURE));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(level, "postgresql at jdbc:postgresql://"
                + "127.0.0.1:1/")) && l.contains("cannot be reached")
                && l.endsWith("(skipped: the database is optional)") == optional);
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, result));
    }

    @Test
    void a_java_based_migration_is_not_run_and_each_is_named_in_a_warning() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, null, "classpath:fixture/javamigration"));

        assertThat(report).contains(Protocol.line(Protocol.WARN, "sqlite: the Java-based migration"
                + " fixture.javamigration.V2__DropJobs is not run by the check, which applies the SQL migrations alone"
                + " with a Flyway of its own: what it changes is missing from the checked schema (see the plugin's"
                + " docs, \"Isolation and versions\")"));
        // it drops the fixture's table: run, it would fail the binding
        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.INFO, Requests.FIXTURE
                + ".FixtureQueues.RENDER on sqlite: table \"fixture_jobs\": 9 statements prepared")));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "0 1"));
    }
}
