package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.broker.AsyncApiSchema;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueBroker;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jooq.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard and the {@code asyncapi} endpoint in a real servlet web application with actuator and Spring
 * Security, run by one small subclass per database: the page behind the service's login, with the queue's
 * figures and the broker's pause; an action without the page's CSRF token refused; the AsyncAPI document.
 */
@ExtendWith(StarterDatabase.class)      // before @SpringBootTest: the database outlives the context
@SpringBootTest(classes = {StarterTestApp.class, DashboardSecurity.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "tablequeue.poll-interval=30s",
            "tablequeue.dashboard.enabled=true",
            "tablequeue.dashboard.actions=true",
            "management.endpoints.web.exposure.include=health,asyncapi",
            "spring.application.name=starter-test",
            "spring.security.user.name=" + DashboardSecurity.USER,
            "spring.security.user.password=" + DashboardSecurity.PASSWORD})
@DirtiesContext
abstract class DashboardMountContract {
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;
    @Autowired
    QueueBroker broker;
    @Autowired
    InboxQueue<Record> queue;
    @Autowired
    JobService jobs;
    @Autowired
    Environment environment;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @AfterEach
    void resume() {
        broker.resume(queue);
    }

    @Test
    void thePageIsBehindTheServicesOwnLogin() throws Exception {
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(uri("/actuator/tablequeue/")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).doesNotContain("data-figure");
    }

    @Test
    void thePagePausesTheSubscriptionThroughTheBrokerAndShowsTheQueuesPendingRows() throws Exception {
        String page = get("/actuator/tablequeue/").body();
        Matcher token = CSRF.matcher(page);
        assertThat(token.find()).as("the page's pause form carries a CSRF token: %s", page).isTrue();

        HttpResponse<String> paused = post("/actuator/tablequeue/run", Map.of("csrf", token.group(1),
                "action", "pause", "queue", "0", "confirmed", "yes"));

        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(broker.isPaused(queue)).isTrue();
        for (int i = 0; i < 3; i++) {
            jobs.publishAndCommit("waiting-" + i);
        }
        HttpResponse<String> shown = get("/actuator/tablequeue/");
        assertThat(shown.statusCode()).isEqualTo(200);
        assertThat(shown.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(shown.body()).contains("data-queue=\"jobs\"").contains("<span class=\"badge\">paused</span>")
                .contains("data-figure=\"pending\">3<").contains("data-figure=\"in-work\">0<")
                .doesNotContain("does not run with the service's broker");
    }

    @Test
    void anActionWithoutThePagesCsrfTokenIsRefusedAndDoesNotRun() throws Exception {
        HttpResponse<String> refused = post("/actuator/tablequeue/run", Map.of("action", "pause", "queue", "0",
                "confirmed", "yes"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(broker.isPaused(queue)).isFalse();
    }

    @Test
    void theMountPointWithoutItsSlashLeadsToThePage() throws Exception {
        HttpResponse<String> moved = get("/actuator/tablequeue");

        assertThat(moved.statusCode()).isEqualTo(301);
        assertThat(moved.headers().firstValue("Location")).hasValue("/actuator/tablequeue/");
    }

    @Test
    void theAsyncApiEndpointDescribesTheSubscribedQueueAndNoDataSourceAddressOrLogin() throws Exception {
        HttpResponse<String> response = get("/actuator/asyncapi");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(AsyncApiSchema.errors(response.body())).as("valid AsyncAPI 3.0.0").isEmpty();
        JsonNode document = new ObjectMapper().readTree(response.body());
        assertThat(document.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(document.path("info").path("title").asText()).isEqualTo("starter-test");
        List<String> addresses = new ArrayList<>();
        document.path("channels").forEach(channel -> addresses.add(channel.path("address").asText()));
        assertThat(addresses).contains("jobs/jobs");
        List<String> secrets = new ArrayList<>(List.of("jdbc:", environment.getProperty("spring.datasource.url")));
        for (String key : List.of("spring.datasource.username", "spring.datasource.password")) {
            String value = environment.getProperty(key);
            if (value != null && !value.isEmpty()) {
                secrets.add(value);
            }
        }
        for (String secret : secrets) {
            assertThat(response.body()).doesNotContainIgnoringCase(secret);
        }
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private String login() {
        return "Basic " + Base64.getEncoder().encodeToString((DashboardSecurity.USER + ":" + DashboardSecurity.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Authorization", login()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A form's POST as the page's browser sends it: from the page's origin. */
    private HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
        String body = new LinkedHashMap<>(form).entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return http.send(HttpRequest.newBuilder(uri(path)).header("Authorization", login())
                        .header("Origin", "http://localhost:" + port)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
