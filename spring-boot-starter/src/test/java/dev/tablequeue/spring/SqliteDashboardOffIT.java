package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.test.Engine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A servlet web application with the dashboard module on its class path but no tablequeue.dashboard.enabled. */
@StarterDatabase.On(Engine.SQLITE)
@ExtendWith(StarterDatabase.class)
@SpringBootTest(classes = {StarterTestApp.class, DashboardSecurity.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "tablequeue.poll-interval=30s",
            "spring.security.user.name=" + DashboardSecurity.USER,
            "spring.security.user.password=" + DashboardSecurity.PASSWORD})
@DirtiesContext
class SqliteDashboardOffIT {
    @LocalServerPort
    int port;
    @Autowired
    ApplicationContext context;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @Test
    void withoutTheDashboardEnabledNothingIsMountedAtItsPath() throws Exception {
        String login = "Basic " + Base64.getEncoder().encodeToString((DashboardSecurity.USER + ":"
                + DashboardSecurity.PASSWORD).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/actuator/tablequeue/")).header("Authorization", login)
                        .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).doesNotContain("data-figure");
        assertThat(context.getBeansOfType(ServletRegistrationBean.class).values())
                .noneMatch(r -> r.getServlet() instanceof TableQueueDashboardServlet);
    }
}
