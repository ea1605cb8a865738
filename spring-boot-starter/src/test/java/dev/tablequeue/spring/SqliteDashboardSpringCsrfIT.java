package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard behind Spring Security's own CSRF check (not left out on its path): the service's security runs
 * in front of the page, so Spring refuses a POST that lacks Spring's token before the dashboard sees it, even
 * one that carries the dashboard's token.
 */
@StarterDatabase.On(Engine.SQLITE)
@ExtendWith(StarterDatabase.class)
@SpringBootTest(classes = {StarterTestApp.class, SqliteDashboardSpringCsrfIT.SpringCsrf.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
            "tablequeue.poll-interval=30s",
            "tablequeue.dashboard.enabled=true",
            "tablequeue.dashboard.actions=true",
            "spring.security.user.name=" + DashboardSecurity.USER,
            "spring.security.user.password=" + DashboardSecurity.PASSWORD})
@DirtiesContext
class SqliteDashboardSpringCsrfIT {
    @LocalServerPort
    int port;
    @Autowired
    QueueBroker broker;
    @Autowired
    InboxQueue<Record> queue;

    /**
     * Every request logs in; Spring's CSRF check on every POST, the dashboard's path included. Boot's error page
     * is let in, so that Spring's 403 is answered as such rather than as the error dispatch's 401.
     */
    @Configuration(proxyBeanMethods = false)
    static class SpringCsrf {
        @Bean
        SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
            return http.authorizeHttpRequests(requests -> requests.requestMatchers("/error").permitAll()
                    .anyRequest().authenticated())
                    .httpBasic(Customizer.withDefaults()).build();
        }
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @Test
    void aPostWithoutSpringsCsrfTokenIsRefusedByTheServicesSecurityBeforeTheDashboard() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String login = "Basic " + Base64.getEncoder().encodeToString((DashboardSecurity.USER + ":"
                + DashboardSecurity.PASSWORD).getBytes(StandardCharsets.UTF_8));
        URI page = URI.create("http://localhost:" + port + "/actuator/tablequeue/");
        String html = http.send(HttpRequest.newBuilder(page).header("Authorization", login).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher token = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(html);
        assertThat(token.find()).as("the page offers its actions: %s", html).isTrue();

        HttpResponse<String> refused = http.send(HttpRequest.newBuilder(page.resolve("run"))
                        .header("Authorization", login).header("Origin", "http://localhost:" + port)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("csrf=" + token.group(1)
                                + "&action=pause&queue=0&confirmed=yes")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("Refused");
        assertThat(broker.isPaused(queue)).isFalse();
    }
}
