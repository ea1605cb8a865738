package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.AsyncApiSchema;
import dev.tablequeue.test.Engine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard in a service whose management server has a port of its own ({@code management.server.port}):
 * the page answers there, behind the service's own login, and the application's port does not serve it.
 */
@StarterDatabase.On(Engine.SQLITE)
@ExtendWith(StarterDatabase.class)
@SpringBootTest(classes = {StarterTestApp.class, DashboardSecurity.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "tablequeue.poll-interval=30s",
            "tablequeue.dashboard.enabled=true",
            "management.server.port=0",
            "management.endpoints.web.exposure.include=health,asyncapi",
            // a login SQLite ignores, which the AsyncAPI document must not hold
            "spring.datasource.username=svc_reader",
            "spring.datasource.password=pw-7f3a9c-spring",
            "spring.security.user.name=" + DashboardSecurity.USER,
            "spring.security.user.password=" + DashboardSecurity.PASSWORD})
@DirtiesContext
class SqliteDashboardManagementPortIT {
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;
    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @Test
    void thePageAnswersOnTheManagementPortBehindTheServicesLogin() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);

        HttpResponse<String> page = get(managementPort, "/actuator/tablequeue/", true);
        HttpResponse<String> anonymous = get(managementPort, "/actuator/tablequeue/", false);

        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.body()).contains("data-queue=\"jobs\"").contains("data-figure=\"pending\">");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.body()).doesNotContain("data-figure");
    }

    @Test
    void theApplicationsPortDoesNotServeThePage() throws Exception {
        HttpResponse<String> main = get(port, "/actuator/tablequeue/", true);

        assertThat(main.statusCode()).isEqualTo(404);
        assertThat(main.body()).doesNotContain("data-figure");
    }

    @Test
    void theAsyncApiDocumentOnTheManagementPortIsValidAsyncApi3AndHoldsNoLoginOrUrl() throws Exception {
        HttpResponse<String> document = get(managementPort, "/actuator/asyncapi", true);

        assertThat(document.statusCode()).as(document.body()).isEqualTo(200);
        assertThat(AsyncApiSchema.errors(document.body())).as("valid AsyncAPI 3.0.0").isEmpty();
        assertThat(document.body()).doesNotContain("svc_reader").doesNotContain("pw-7f3a9c-spring")
                .doesNotContain("jdbc:").doesNotContain(StarterDatabase.current().url());
    }

    private HttpResponse<String> get(int on, String path, boolean login) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + on + path));
        if (login) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (DashboardSecurity.USER + ":" + DashboardSecurity.PASSWORD).getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
