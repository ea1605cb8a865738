package dev.tablequeue.cli;

import static dev.tablequeue.cli.ServiceJars.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.broker.AsyncApiSchema;
import dev.tablequeue.cli.ServiceJars.Run;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.JobsTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tablequeue serve} and {@code tablequeue asyncapi} over a service's jar on a SQLite file: the page shows
 * the table's figures and stops when closed; the document describes the queues, the payload type and the outbox.
 */
class ServeAndAsyncApiTest {
    private static final String SHOP = """
            package acme;

            import dev.tablequeue.binding.Form;
            import dev.tablequeue.binding.RoleBinding;
            import dev.tablequeue.outbox.OutboxBinding;
            import dev.tablequeue.test.Engine;
            import dev.tablequeue.test.contract.Jobs;
            import dev.tablequeue.test.contract.JobsTables;
            import org.jooq.Record;

            public final class ShopQueues {
                private static final Jobs TABLE = new Jobs("shop_jobs", JobsTables.timeType(Engine.SQLITE));
                private static final Jobs OUTBOX_TABLE = new Jobs("shop_outbox", JobsTables.timeType(Engine.SQLITE));

                public static final RoleBinding<Record> JOBS = Jobs.binding(TABLE, Form.LEASE);
                /** The same table, bound as a service that deletes each row it acknowledges. */
                public static final RoleBinding<Record> DELETING = RoleBinding.of(TABLE, TABLE.ID).group(TABLE.GRP)
                        .retryAfter(TABLE.RETRY_AFTER).attempt(TABLE.ATTEMPT).payload(TABLE.PAYLOAD)
                        .lease(TABLE.LOCKED_UNTIL).build();
                public static final OutboxBinding<Record> OUTBOX =
                        OutboxBinding.of(OUTBOX_TABLE, OUTBOX_TABLE.ID, OUTBOX_TABLE.NOTE, OUTBOX_TABLE.PAYLOAD).build();

                private ShopQueues() {}
            }
            """;

    private static final String EMAIL = """
            package acme;

            public record Email(String recipient, String subject) {}
            """;

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A login given to the command, which the document must not hold (SQLite ignores it). */
    private static final String USER = "svc_reader";
    private static final String PASSWORD = "pw-7f3a9c-cli";

    @TempDir
    Path dir;

    private String url;
    private Path jar;

    @BeforeEach
    void aShopDatabaseAndJar() throws Exception {
        url = "jdbc:sqlite:" + dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(JobsTables.ddl(Engine.SQLITE, "shop_jobs"));
            s.execute("INSERT INTO shop_jobs (grp, payload) VALUES ('emails', x'00'), ('emails', x'01'),"
                    + " ('emails', x'02'), ('invoices', x'03')");
        }
        ServiceJars jars = new ServiceJars(dir);
        jar = jars.jar("shop.jar", jars.compile("classes", Map.of("acme.ShopQueues", SHOP, "acme.Email", EMAIL)));
    }

    @Test
    void serve_shows_each_queues_pending_count_until_closed() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        java.net.URI uri;
        try (TableQueueCli.Served served = TableQueueCli.serve(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), "--url", url, "--classpath", jar.toString(), "--binding",
                "acme.ShopQueues#JOBS", "--port", "0")) {
            uri = served.uri();
            assertThat(uri.getHost()).isEqualTo("127.0.0.1");
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(uri).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("emails").contains("invoices")
                    .contains("data-figure=\"pending\">3<").contains("data-figure=\"pending\">1<");
        }
        // closed: the port no longer answers
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
    }

    @Test
    void serve_on_a_table_that_deletes_acknowledged_rows_says_why_it_draws_no_throughput_chart() throws Exception {
        try (TableQueueCli.Served served = TableQueueCli.serve(new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()), "--url", url, "--classpath", jar.toString(), "--binding",
                "acme.ShopQueues#DELETING", "--queue", "emails", "--port", "0")) {
            HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(served.uri()).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("data-chart=\"none\"").contains("No throughput chart")
                    .doesNotContain("<svg");
        }
    }

    @Test
    void serve_with_actions_and_no_token_is_refused_in_one_line_before_it_listens() {
        assumeTrue(System.getenv(ServeCommand.TOKEN_ENV) == null, "the environment gives a token");

        Run run = cli("serve", "--url", url, "--classpath", jar.toString(), "--binding", "acme.ShopQueues#JOBS",
                "--port", "0", "--actions");

        assertThat(run.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(1).first().asString()
                .startsWith("tablequeue: --actions needs an access token: give --token or set "
                        + ServeCommand.TOKEN_ENV);
    }

    @Test
    void asyncapi_describes_each_queue_with_its_payload_type_and_each_outbox_without_the_url() throws Exception {
        Run run = cli("asyncapi", "--url", url, "--user", USER, "--password", PASSWORD, "--classpath",
                jar.toString(), "--binding", "acme.ShopQueues#JOBS", "--payload", "acme.Email", "--outbox",
                "acme.ShopQueues#OUTBOX", "--title", "shop", "--service-version", "1.2");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(AsyncApiSchema.errors(run.out())).as("valid AsyncAPI 3.0.0").isEmpty();
        assertThat(run.out()).doesNotContain(USER).doesNotContain(PASSWORD).doesNotContain("jdbc:");
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(document.path("info").path("title").asText()).isEqualTo("shop");
        assertThat(document.path("info").path("version").asText()).isEqualTo("1.2");
        assertThat(document.path("channels").size()).isEqualTo(3);
        assertThat(run.out()).contains("shop_jobs/emails").contains("shop_jobs/invoices").contains("shop_outbox")
                .contains("recipient").contains("subject").doesNotContain(url).doesNotContain(dir.toString());
    }

    @Test
    void asyncapi_in_row_mode_describes_the_queues_named() throws Exception {
        Run run = cli("asyncapi", "--url", url, "--classpath", jar.toString(), "--binding", "acme.ShopQueues#JOBS",
                "--queue", "invoices");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(AsyncApiSchema.errors(run.out())).as("valid AsyncAPI 3.0.0").isEmpty();
        JsonNode document = JSON.readTree(run.out());
        assertThat(document.path("channels").size()).isEqualTo(1);
        assertThat(run.out()).contains("shop_jobs/invoices").doesNotContain("shop_jobs/emails").doesNotContain(url);
    }
}
