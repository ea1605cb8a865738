package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.cli.TableQueueCli;
import dev.tablequeue.test.contract.Jobs;
import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tablequeue} command line, run in-process on each database against the {@link CliBindings}
 * constant of its table, as an operator runs it against a service's. Per-database classes name their
 * {@link TestDatabase}.
 */
public abstract class CliContract extends AdminFixture {
    private Jobs jobs;
    private Jobs dead;

    /** What one run printed, and its exit code. */
    protected record Run(int code, String out, String err) {}

    @BeforeEach
    void freshTables() {
        db.execute("DROP TABLE IF EXISTS " + CliBindings.TABLE, createTable(CliBindings.TABLE),
                "DROP TABLE IF EXISTS cli_jobs_dead", createTable("cli_jobs_dead"));
        jobs = new Jobs(CliBindings.TABLE, timeType());
        dead = new Jobs("cli_jobs_dead", timeType());
        insertRow(jobs, "emails", NOW.minusSeconds(120), 1);
        insertRow(jobs, "emails", NOW.minusSeconds(30), 2);
        insertRow(jobs, "emails", NOW.plusSeconds(600), 1);
        setTime(jobs, insertRow(jobs, "emails", NOW.minusSeconds(500), 3), "locked_until", NOW.plusSeconds(60));
        setTime(jobs, insertRow(jobs, "emails", NOW.minus(Duration.ofDays(9)), 1), "processed_at",
                NOW.minus(Duration.ofDays(8)));
        insertRow(jobs, "escalated", NOW.minusSeconds(900), 4);
    }

    @Test
    public final void stats_print_a_table_of_every_queue_of_the_table() {
        Run run = cli("stats", "--url", db.url(), "--binding", binding(), "--now", NOW.toString());

        assertThat(run.code()).as(run.err()).isZero();
        String format = "%-9s  %7s  %9s  %7s  %4s  %9s  %14s  %s";
        assertThat(run.out()).isEqualTo(String.join("\n",
                String.format(format, "queue", "pending", "scheduled", "in work", "dead", "processed", "oldest pending",
                        "attempts"),
                String.format(format, "emails", "2", "1", "1", "-", "1", "2m 0s", "1:2 2:1 3:1"),
                String.format(format, "escalated", "1", "0", "0", "-", "0", "15m 0s", "4:1")) + "\n");
    }

    @Test
    public final void stats_in_json_give_each_figure_of_the_named_queue_with_its_dead_letters() throws Exception {
        Run run = cli("stats", "--url", db.url(), "--binding", binding(), "--queue", "emails",
                "--dead-letter", "escalated", "--json", "--now", NOW.toString());

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(root.get("table").asText()).isEqualTo(CliBindings.TABLE);
        assertThat(root.get("queues")).hasSize(1);
        JsonNode emails = root.get("queues").get(0);
        assertThat(emails.get("queue").asText()).isEqualTo("emails");
        assertThat(emails.get("pending").asLong()).isEqualTo(2);
        assertThat(emails.get("scheduled").asLong()).isEqualTo(1);
        assertThat(emails.get("inWork").asLong()).isEqualTo(1);
        assertThat(emails.get("dead").asLong()).isEqualTo(1);
        assertThat(emails.get("processed").asLong()).isEqualTo(1);
        assertThat(emails.get("oldestPendingAgeSeconds").asDouble()).isEqualTo(120.0);
        assertThat(emails.get("attempts").toString()).isEqualTo("{\"1\":2,\"2\":1,\"3\":1}");
    }

    @Test
    public final void redrive_moves_a_groups_dead_letters_back_into_the_queue() {
        Run run = cli("redrive", "--url", db.url(), "--binding", binding(), "--queue", "emails",
                "--dead-letter", "escalated");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("redrove 1 dead letter into cli_jobs/emails\n");
        assertThat(count(jobs, "grp = 'escalated'")).isZero();
        assertThat(count(jobs, "grp = 'emails' and attempt = 1 and processed_at is null")).isEqualTo(3);
    }

    @Test
    public final void redrive_by_id_from_a_dead_letter_table_moves_that_row_and_reports_it_in_json() throws Exception {
        // a dead-letter table keeps the ids its rows had in the queue table
        for (long id : new long[] {101, 102}) {
            dsl().insertInto(dead).set(dead.ID, id).set(dead.GRP, "emails").set(dead.ATTEMPT, 5).execute();
        }
        long named = 102;

        Run run = cli("redrive", "--url", db.url(), "--binding", binding(), "--queue", "emails",
                "--dead-letter-table", "cli_jobs_dead", "--id", Long.toString(named), "--json");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode result = new ObjectMapper().readTree(run.out());
        assertThat(result.get("redriven").asLong()).isEqualTo(1);
        assertThat(result.get("queue").asText()).isEqualTo("emails");
        assertThat(groupAndAttempt(jobs, named)).isEqualTo("emails/1");
        assertThat(dsl().fetchCount(dead)).isEqualTo(1);
    }

    @Test
    public final void purge_deletes_the_rows_processed_longer_ago_than_the_age() {
        Run run = cli("purge", "--url", db.url(), "--binding", binding(), "--queue", "emails", "--older-than", "7d",
                "--now", NOW.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("purged 1 processed row of cli_jobs/emails\n");
        assertThat(count(jobs, "processed_at is not null")).isZero();
        assertThat(dsl().fetchCount(jobs)).isEqualTo(5);
    }

    @Test
    public final void retention_removes_the_acknowledged_and_dead_rows_past_their_age_and_says_how_many() {
        Run run = cli("retention", "--url", db.url(), "--binding", binding(), "--acknowledged-older-than", "7d",
                "--dead-letter", "escalated", "--dead-aged-by", "retry_after", "--dead-older-than", "10m",
                "--now", NOW.toString());

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("removed 1 acknowledged and 1 dead row(s) of cli_jobs in 2 batch(es)\n");
        assertThat(count(jobs, "processed_at is not null")).isZero();
        assertThat(count(jobs, "grp = 'escalated'")).isZero();
        assertThat(dsl().fetchCount(jobs)).isEqualTo(4);
    }

    @Test
    public final void schedules_list_a_recurring_jobs_newest_instant_in_its_table_and_the_next_one_due() throws Exception {
        // two instants of "sweep" published before NOW (15:09:26), and a key of another schedule
        for (String note : List.of("sweep@2031-03-14T13:00:00Z", "sweep@2031-03-14T14:00:00Z",
                "sweeper@2031-03-14T23:00:00Z")) {
            db.execute("UPDATE " + CliBindings.TABLE + " SET note = '" + note + "' WHERE id = (SELECT id FROM (SELECT"
                    + " MIN(id) AS id FROM " + CliBindings.TABLE + " WHERE note IS NULL) AS n)");
        }
        String job = CliBindings.class.getName() + "#" + database().name() + "_SWEEP";

        Run run = cli("schedules", "--url", db.url(), "--job", job, "--now", NOW.toString());

        assertThat(run.code()).as(run.err()).isZero();
        String format = "%-20s %-36s %-24s %-21s %s";
        assertThat(run.out()).isEqualTo(String.format(format, "schedule", "timing", "table / queue", "last", "next")
                + "\n" + String.format(format, "sweep", "every PT1H", "cli_jobs / sweeps", "2031-03-14T14:00:00Z",
                        "2031-03-14T16:00:00Z") + "\n");

        Run json = cli("schedules", "--url", db.url(), "--job", job, "--now", NOW.toString(), "--json");
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode only = new ObjectMapper().readTree(json.out()).get(0);
        assertThat(only.get("name").asText()).isEqualTo("sweep");
        assertThat(only.get("last").asText()).isEqualTo("2031-03-14T14:00:00Z");
        assertThat(only.get("next").asText()).isEqualTo("2031-03-14T16:00:00Z");
    }

    @Test
    public final void schedules_refuse_a_job_whose_table_has_no_unique_key_naming_the_schedule_and_table() {
        Run run = cli("schedules", "--url", db.url(), "--job", CliBindings.class.getName() + "#UNKEYED_SWEEP");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.err()).startsWith("tablequeue: schedule \"sweep\" (every PT1H) into table \"cli_jobs\" is"
                + " refused: its binding declares no unique key");
    }

    @Test
    public final void schedules_refuse_a_field_that_is_not_a_recurring_job_listing_the_classes_jobs() {
        Run run = cli("schedules", "--url", db.url(), "--job", CliBindings.class.getName() + "#NOT_A_BINDING");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.err()).contains("--job ").contains("field NOT_A_BINDING holds a java.lang.String, not a"
                + " RecurringJob").contains("POSTGRES_SWEEP");
    }

    @Test
    public final void a_binding_from_the_services_classes_is_found_through_the_classpath_option(@TempDir Path dir)
            throws Exception {
        Path source = dir.resolve("src/acme/ServiceQueues.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package acme;\npublic final class ServiceQueues {\n"
                + "    public static final dev.tablequeue.binding.RoleBinding<?> JOBS = dev.tablequeue.it.CliBindings."
                + database().name() + ";\n}\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String testClassPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        assertThat(javac.run(null, null, null, "-classpath", testClassPath, "-d", classes.toString(),
                source.toString())).isZero();

        Run without = cli("stats", "--url", db.url(), "--binding", "acme.ServiceQueues#JOBS");
        Run with = cli("stats", "--url", db.url(), "--classpath", classes.toString(),
                "--binding", "acme.ServiceQueues#JOBS", "--queue", "emails", "--json", "--now", NOW.toString());

        assertThat(without.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(without.err()).contains("acme.ServiceQueues is not on the class path").contains("--classpath");
        assertThat(with.code()).as(with.err()).isZero();
        assertThat(new ObjectMapper().readTree(with.out()).get("queues").get(0).get("pending").asLong()).isEqualTo(2);
    }

    @Test
    public final void a_field_that_is_not_a_binding_is_refused_naming_it() {
        Run run = cli("stats", "--url", db.url(), "--binding", "dev.tablequeue.it.CliBindings#NOT_A_BINDING");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.err()).contains("NOT_A_BINDING").contains("java.lang.String, not a RoleBinding");
        assertThat(run.out()).isEmpty();
    }

    @Test
    public final void a_failure_on_the_database_names_the_table_and_exits_with_one() {
        db.execute("DROP TABLE " + CliBindings.TABLE);

        Run run = cli("stats", "--url", db.url(), "--binding", binding(), "--queue", "emails");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.err()).contains("admin stats").contains("\"" + CliBindings.TABLE + "\"");
    }

    @Test
    public final void options_missing_or_malformed_are_usage_errors_that_change_nothing() {
        Run noUrl = cli("stats", "--binding", binding());
        Run badAge = cli("purge", "--url", db.url(), "--binding", binding(), "--queue", "emails",
                "--older-than", "a week");
        Run noDeadLetter = cli("redrive", "--url", db.url(), "--binding", binding(), "--queue", "emails");

        assertThat(noUrl.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(noUrl.err()).contains("Missing required option: '--url=JDBC_URL'");
        assertThat(badAge.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(badAge.err()).contains("'a week' is not an age");
        assertThat(noDeadLetter.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(noDeadLetter.err()).contains("--dead-letter");
        // each refusal is one line, never a stack trace
        assertThat(List.of(noUrl.err(), badAge.err(), noDeadLetter.err()))
                .allSatisfy(err -> assertThat(err.strip().lines()).hasSize(1));
        assertThat(dsl().fetchCount(jobs)).isEqualTo(6);
        assertThat(dsl().fetchCount(DSL.table(DSL.name("cli_jobs_dead")))).isZero();
    }

    @Test
    public final void serve_shows_the_seeded_queues_pending_count_and_refuses_a_post_without_the_csrf_token()
            throws Exception {
        String token = "cli-contract-token-0123456789";
        HttpClient http = HttpClient.newHttpClient();
        try (TableQueueCli.Served served = TableQueueCli.serve(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), "--url", db.url(), "--binding", binding(), "--queue", "emails",
                "--now", NOW.toString(), "--port", "0", "--actions", "--token", token)) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(served.uri())
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            assertThat(page.body()).contains("emails").contains("data-figure=\"pending\">2<");

            HttpResponse<String> post = http.send(HttpRequest.newBuilder(served.uri().resolve("run"))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("queue=0&action=redrive")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(post.statusCode()).as(post.body()).isEqualTo(403);
            assertThat(post.body()).contains("no CSRF token");
        }
    }

    @Test
    public final void serve_with_actions_and_no_token_is_refused_in_one_line() {
        Assumptions.assumeTrue(System.getenv("TABLEQUEUE_DASHBOARD_TOKEN") == null, "the environment gives a token");

        Run run = cli("serve", "--url", db.url(), "--binding", binding(), "--port", "0", "--actions");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(1).first().asString()
                .startsWith("tablequeue: --actions needs an access token");
    }

    @Test
    public final void asyncapi_prints_a_channel_per_queue_and_nothing_of_the_data_source() throws Exception {
        Run run = cli("asyncapi", "--url", db.url(), "--binding", binding());

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode document = new ObjectMapper().readTree(run.out());
        assertThat(document.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(document.path("channels").size()).isEqualTo(2);
        assertThat(run.out()).contains(CliBindings.TABLE + "/emails").contains(CliBindings.TABLE + "/escalated")
                .doesNotContain(db.url()).doesNotContain("jdbc:").doesNotContain("127.0.0.1")
                .doesNotContainIgnoringCase("password").doesNotContain("user=");
    }

    /** The binding constant of this database's table. */
    protected String binding() {
        return CliBindings.class.getName() + "#" + database().name();
    }

    protected static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = TableQueueCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }
}
