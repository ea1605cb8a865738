package dev.tablequeue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the guard lets through and what it refuses, request by request, without a server or a database. */
class GuardTest {
    private static final String TOKEN = "0123456789abcdef-token";
    private final Guard guard = new Guard(TOKEN, Set.of("127.0.0.1:8089", "localhost:8089"));

    @Test
    void a_page_request_shows_the_token_as_a_bearer_header_or_the_cookie_and_names_an_allowed_host() {
        assertThat(guard.refuseRead(get("127.0.0.1:8089", "Authorization", "Bearer " + TOKEN))).isEmpty();
        assertThat(guard.refuseRead(get("LOCALHOST:8089", "Cookie", "a=b; " + Guard.COOKIE + "=" + TOKEN))).isEmpty();
        assertThat(guard.refuseRead(get("127.0.0.1:8089", "Authorization", "Bearer " + TOKEN + "x")))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(401));
        assertThat(guard.refuseRead(get("127.0.0.1:8089")))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(401));
        assertThat(guard.refuseRead(get("rebound.example:8089", "Authorization", "Bearer " + TOKEN)))
                .hasValueSatisfying(r -> assertThat(r.why()).startsWith("Host rebound.example:8089 is not one"));
    }

    @Test
    void an_action_needs_the_pages_csrf_token_and_its_own_origin() {
        String csrf = guard.csrf();
        assertThat(guard.refuseAction(post(csrf, "Origin", "http://127.0.0.1:8089"))).isEmpty();
        assertThat(guard.refuseAction(post(csrf))).as("no Origin: a client that is not a browser").isEmpty();
        assertThat(guard.refuseAction(post(null)))
                .hasValueSatisfying(r -> assertThat(r.why()).contains("no CSRF token"));
        assertThat(guard.refuseAction(post(csrf.substring(1) + "x")))
                .hasValueSatisfying(r -> assertThat(r.why()).contains("CSRF token is not this dashboard's"));
        assertThat(guard.refuseAction(post(csrf, "Origin", "http://evil.example")))
                .hasValueSatisfying(r -> assertThat(r.why()).contains("origin http://evil.example"));
        assertThat(guard.refuseAction(post(csrf, "Origin", "null"))).isPresent();
        assertThat(guard.refuseAction(post(csrf, "Origin", "http://127.0.0.1:8089", "Sec-Fetch-Site", "cross-site")))
                .hasValueSatisfying(r -> assertThat(r.why()).contains("Sec-Fetch-Site: cross-site"));
    }

    @Test
    void two_dashboards_make_different_csrf_tokens() {
        assertThat(new Guard(null, Set.of()).csrf()).isNotEqualTo(new Guard(null, Set.of()).csrf())
                .hasSizeGreaterThan(40);
    }

    private static DashboardRequest get(String host, String... headers) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", host);
        for (int i = 0; i < headers.length; i += 2) {
            h.put(headers[i], headers[i + 1]);
        }
        return new DashboardRequest("GET", "/", h, Map.of(), Map.of());
    }

    private static DashboardRequest post(String csrf, String... headers) {
        DashboardRequest get = get("127.0.0.1:8089", headers);
        Map<String, String> h = new LinkedHashMap<>(get.headers());
        h.put("Authorization", "Bearer " + TOKEN);
        return new DashboardRequest("POST", "/confirm", h, Map.of(),
                csrf == null ? Map.of("action", "redrive-all") : Map.of("action", "redrive-all", "csrf", csrf));
    }
}
