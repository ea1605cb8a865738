package dev.tablequeue.dashboard;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may read the page and run its actions: the access token (a bearer header or the cookie an opening with
 * {@code ?token=} set), the Host a request names, the Origin a form's POST comes from, and the CSRF token the
 * page's forms carry. A binding to localhost alone stops neither a page of another site that posts a form to
 * it (CSRF) nor one whose name an attacker points at 127.0.0.1 (DNS rebinding): the CSRF token and the Origin
 * check stop the first, the Host check the second.
 */
final class Guard {
    /** The cookie that carries the access token after an opening with {@code ?token=}. */
    static final String COOKIE = "tablequeue_dashboard";

    private final byte[] accessToken;
    private final String csrf;
    /** Grows once, when {@link DashboardServer} binds: the address it serves on. */
    private final Set<String> hosts = ConcurrentHashMap.newKeySet();

    /**
     * @param accessToken the token a request shows, or null where the host's security decides who comes in
     * @param hosts the {@code host:port} values a request's Host may name; empty for any
     */
    Guard(String accessToken, Set<String> hosts) {
        this.accessToken = accessToken == null ? null : accessToken.getBytes(StandardCharsets.UTF_8);
        allow(hosts);
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        this.csrf = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    /** Lets in requests whose Host names one of {@code more} ({@code host:port}). */
    void allow(Collection<String> more) {
        more.forEach(h -> hosts.add(h.toLowerCase(Locale.ROOT)));
    }

    /** The token the page's forms carry. */
    String csrf() {
        return csrf;
    }

    /** Whether requests must show an access token. */
    boolean hasToken() {
        return accessToken != null;
    }

    /** Whether {@code offered} is the access token, compared in constant time. */
    boolean isToken(String offered) {
        return accessToken != null && offered != null
                && MessageDigest.isEqual(accessToken, offered.getBytes(StandardCharsets.UTF_8));
    }

    /** Why {@code request} may not read the page, if it may not: its Host, or its missing access token. */
    Optional<Refusal> refuseRead(DashboardRequest request) {
        Optional<String> host = request.header("Host").map(h -> h.toLowerCase(Locale.ROOT));
        if (!hosts.isEmpty() && (host.isEmpty() || !hosts.contains(host.get()))) {
            return Optional.of(new Refusal(403, "Host " + host.orElse("(none)") + " is not one this dashboard"
                    + " answers to (it answers to " + String.join(", ", new java.util.TreeSet<>(hosts)) + "): a"
                    + " request under another name may come through a rebound DNS name."));
        }
        if (accessToken != null && !isToken(bearer(request)) && !isToken(cookie(request))) {
            return Optional.of(new Refusal(401, "This dashboard needs its access token: open it once with"
                    + " ?token=<token>, or send the header Authorization: Bearer <token>."));
        }
        return Optional.empty();
    }

    /**
     * Why {@code request}, a POST of an action, may not run, if it may not: what {@link #refuseRead} refuses,
     * a form of another origin, or a form without this page's CSRF token.
     */
    Optional<Refusal> refuseAction(DashboardRequest request) {
        Optional<Refusal> read = refuseRead(request);
        if (read.isPresent()) {
            return read;
        }
        Optional<String> origin = request.header("Origin");
        if (origin.isPresent() && !sameOrigin(origin.get(), request.header("Host").orElse(""))) {
            return Optional.of(new Refusal(403, "The form came from origin " + origin.get() + ", not from this"
                    + " dashboard's page: actions are taken only from the page itself."));
        }
        String site = request.header("Sec-Fetch-Site").orElse("same-origin");
        if (!site.equals("same-origin") && !site.equals("none")) {
            return Optional.of(new Refusal(403, "The browser says the form came from another site (Sec-Fetch-Site: "
                    + site + "): actions are taken only from the page itself."));
        }
        String offered = request.form().get("csrf");
        if (offered == null || !MessageDigest.isEqual(csrf.getBytes(StandardCharsets.UTF_8),
                offered.getBytes(StandardCharsets.UTF_8))) {
            return Optional.of(new Refusal(403, offered == null
                    ? "The form carries no CSRF token: reload the page and take the action from it."
                    : "The form's CSRF token is not this dashboard's (it changes when the dashboard restarts):"
                            + " reload the page and take the action from it."));
        }
        return Optional.empty();
    }

    /** Whether {@code origin} is the origin of a page served under {@code host}. */
    private static boolean sameOrigin(String origin, String host) {
        if (origin.equals("null") || host.isEmpty()) {
            return false;
        }
        try {
            URI uri = URI.create(origin);
            String authority = uri.getRawAuthority();
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && authority != null && authority.equalsIgnoreCase(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String bearer(DashboardRequest request) {
        return request.header("Authorization").filter(a -> a.regionMatches(true, 0, "Bearer ", 0, 7))
                .map(a -> a.substring(7).trim()).orElse(null);
    }

    private static String cookie(DashboardRequest request) {
        for (String part : request.header("Cookie").orElse("").split(";")) {
            String p = part.trim();
            if (p.startsWith(COOKIE + "=")) {
                return p.substring(COOKIE.length() + 1);
            }
        }
        return null;
    }

    /** A request refused: its status and why, for the page to say. */
    record Refusal(int status, String why) {}
}
