package dev.tablequeue.dashboard;

import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ServedQueue;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A web page over a service's queues: for each, what it holds (pending, in work, retried, dead, the oldest
 * pending row's age), what it acknowledged in the last 15 minutes, its failing rows and its dead letters; and,
 * where {@linkplain Builder#actions enabled}, buttons that redrive, retry now, delete, pause and resume, each
 * confirmed on a page of its own before it runs.
 *
 * <pre>{@code
 * Dashboard dashboard = Dashboard.builder(QueueAdmin.of(dataSource))
 *         .queue(emails, DeadLetter.group("escalated"))
 *         .actions(true)
 *         .token(System.getenv("DASHBOARD_TOKEN"))
 *         .build();
 * try (DashboardServer server = dashboard.serve(new InetSocketAddress("127.0.0.1", 8089))) { ... }
 * }</pre>
 *
 * <p>{@link #handle} answers one request whatever server received it: {@link #serve} puts it on the JDK's HTTP
 * server, and a host mounts it by passing its requests (the path below the mount point, which ends with a
 * slash, as the page's links are relative).
 *
 * <p>Actions are POSTs that carry the page's CSRF token and come from the page's origin; every request names
 * a Host the dashboard answers to (the served address, and those {@linkplain Builder#allowHost allowed}), and
 * shows the access token where one is set. Where the page runs with the service's broker
 * ({@link #builder(QueueBroker)}) it shows the deliveries in work and pauses and resumes subscriptions; where
 * it does not, it says so.
 */
public final class Dashboard {
    private final QueueAdmin admin;
    private final QueueBroker broker;
    private final List<Entry> queues;
    private final String title;
    private final boolean actions;
    private final Guard guard;
    private final Clock clock;
    private final Views views = new Views();

    /** A queue the page shows, at its place on the page. */
    record Entry(int index, InboxQueue<?> queue, DeadLetter deadLetter) {}

    private Dashboard(Builder b) {
        this.admin = b.admin;
        this.broker = b.broker;
        this.title = b.title;
        this.actions = b.actions;
        this.clock = b.clock;
        List<Entry> entries = new ArrayList<>();
        b.queues.forEach((q, dead) -> entries.add(new Entry(entries.size(), q, dead.orElse(null))));
        this.queues = List.copyOf(entries);
        this.guard = new Guard(b.token, b.hosts);
    }

    /** A dashboard over the queues of {@code admin}'s database: name them with {@link Builder#queue}. */
    public static Builder builder(QueueAdmin admin) {
        return new Builder(Objects.requireNonNull(admin, "admin"), null);
    }

    /**
     * A dashboard inside the service that runs {@code broker}: it shows every queue the broker serves, with the
     * dead letter its subscription declares, counts the broker's deliveries in work, and pauses and resumes.
     */
    public static Builder builder(QueueBroker broker) {
        Builder b = new Builder(QueueAdmin.of(broker), broker);
        for (ServedQueue s : broker.queues()) {
            b.queues.put(s.queue(), s.deadLetter());
        }
        return b;
    }

    /**
     * Serves the dashboard on the JDK's HTTP server at {@code address} (port 0 for any free port), where it
     * answers requests whose Host names that address (and {@code localhost} on a loopback address).
     *
     * @throws IllegalStateException where actions are enabled without an access token
     */
    public DashboardServer serve(InetSocketAddress address) throws IOException {
        if (actions && !guard.hasToken()) {
            throw new IllegalStateException("a dashboard served on its own with actions(true) needs token(..):"
                    + " anyone who reaches its port could otherwise delete rows");
        }
        return DashboardServer.start(this, address);
    }

    /** Lets in requests that name one of {@code hosts} as their Host (the address a server bound). */
    void allowHosts(Set<String> hosts) {
        guard.allow(hosts);
    }

    /**
     * Answers {@code request}: {@code GET /} the page (with {@code ?token=} it sets the access cookie and sends
     * the browser back to the page), {@code POST /confirm} an action's confirmation, {@code POST /run} the action
     * confirmed. A refused request is answered with its status and a page that says why.
     */
    public DashboardResponse handle(DashboardRequest request) {
        String path = request.path().isEmpty() ? "/" : request.path();
        boolean post = request.method().equalsIgnoreCase("POST");
        boolean get = request.method().equalsIgnoreCase("GET") || request.method().equalsIgnoreCase("HEAD");
        if (!path.equals("/") && !path.equals("/confirm") && !path.equals("/run")) {
            return page(404, views.message(title, "Not found", "This dashboard has no page " + path + ".", true));
        }
        if (path.equals("/") && get) {
            return show(request);
        }
        if (path.equals("/") || !post) {
            return page(405, views.message(title, "Method not allowed", path + " takes "
                    + (path.equals("/") ? "GET" : "POST") + " only.", true));
        }
        Optional<Guard.Refusal> refused = guard.refuseRead(request);
        if (refused.isEmpty() && !actions) {
            refused = Optional.of(new Guard.Refusal(403, "This dashboard is read-only: it takes no actions."));
        }
        if (refused.isEmpty()) {
            refused = guard.refuseAction(request);
        }
        if (refused.isPresent()) {
            return refusal(refused.get());
        }
        Action action;
        try {
            action = Action.parse(request.form(), queues, broker);
        } catch (Action.Invalid e) {
            return page(400, views.message(title, "Refused", e.getMessage(), true));
        }
        return path.equals("/confirm") ? confirm(action) : run(action, request);
    }

    private DashboardResponse show(DashboardRequest request) {
        String offered = request.query().get("token");
        if (offered != null && guard.hasToken()) {
            Optional<Guard.Refusal> host = guard.refuseRead(withBearer(request, offered));
            if (host.isPresent()) {
                return refusal(host.get());
            }
            Map<String, String> headers = security();
            headers.put("Location", "./");
            headers.put("Set-Cookie", Guard.COOKIE + "=" + offered + "; Path=/; HttpOnly; SameSite=Strict");
            return new DashboardResponse(303, headers, "");
        }
        Optional<Guard.Refusal> refused = guard.refuseRead(request);
        if (refused.isPresent()) {
            return refusal(refused.get());
        }
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("title", title);
        model.put("actions", actions);
        model.put("csrf", actions ? guard.csrf() : "");
        model.put("withBroker", broker != null);
        model.put("readAt", Views.time(clock.instant()));
        model.put("queues", queues.stream().map(q -> Views.queue(admin, broker, q)).toList());
        return page(200, views.page(model));
    }

    private DashboardResponse confirm(Action action) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("title", title);
        model.put("question", action.question());
        model.put("csrf", guard.csrf());
        model.put("fields", action.fields().entrySet().stream()
                .map(e -> Map.of("name", e.getKey(), "value", e.getValue())).toList());
        model.put("danger", action.kind() == Action.Kind.DELETE || action.kind() == Action.Kind.DELETE_DEAD);
        return page(200, views.confirm(model));
    }

    private DashboardResponse run(Action action, DashboardRequest request) {
        if (!"yes".equals(request.form().get("confirmed"))) {
            return page(400, views.message(title, "Not confirmed", "An action runs from its confirmation page only.",
                    true));
        }
        try {
            return page(200, views.message(title, "Done", action.run(admin, broker), false));
        } catch (RuntimeException e) {
            return page(500, views.message(title, "The action failed", action.question() + " It failed: "
                    + e.getMessage(), true));
        }
    }

    private static DashboardRequest withBearer(DashboardRequest request, String token) {
        Map<String, String> headers = new LinkedHashMap<>(request.headers());
        headers.put("Authorization", "Bearer " + token);
        return new DashboardRequest(request.method(), request.path(), headers, request.query(), request.form());
    }

    private DashboardResponse refusal(Guard.Refusal r) {
        String heading = r.status() == 401 ? "Access token needed" : "Refused";
        return page(r.status(), views.message(title, heading, r.why(), true));
    }

    private static DashboardResponse page(int status, String html) {
        Map<String, String> headers = security();
        headers.put("Content-Type", "text/html; charset=utf-8");
        return new DashboardResponse(status, headers, html);
    }

    /** Headers on every answer: no script, no framing, no caching, no referrer to another site. */
    private static Map<String, String> security() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:;"
                + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
        h.put("X-Frame-Options", "DENY");
        h.put("X-Content-Type-Options", "nosniff");
        // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the page's own forms
        h.put("Referrer-Policy", "same-origin");
        h.put("Cache-Control", "no-store");
        return h;
    }

    /** The settings of a {@link Dashboard}. */
    public static final class Builder {
        private final QueueAdmin admin;
        private final QueueBroker broker;
        private final Map<InboxQueue<?>, Optional<DeadLetter>> queues = new LinkedHashMap<>();
        private final Set<String> hosts = new LinkedHashSet<>();
        private String title = "tablequeue";
        private boolean actions;
        private String token;
        private Clock clock = Clock.systemUTC();

        private Builder(QueueAdmin admin, QueueBroker broker) {
            this.admin = admin;
            this.broker = broker;
        }

        /** Shows {@code queue}, which has no dead letter. */
        public Builder queue(InboxQueue<?> queue) {
            queues.put(Objects.requireNonNull(queue, "queue"), Optional.empty());
            return this;
        }

        /** Shows {@code queue} and its dead letter {@code deadLetter} (null for none). */
        public Builder queue(InboxQueue<?> queue, DeadLetter deadLetter) {
            queues.put(Objects.requireNonNull(queue, "queue"), Optional.ofNullable(deadLetter));
            return this;
        }

        /** The page's heading: the service's name (default {@code tablequeue}). */
        public Builder title(String title) {
            this.title = Objects.requireNonNull(title, "title");
            return this;
        }

        /** Whether the page offers its actions (default false: read-only, and every POST refused). */
        public Builder actions(boolean enabled) {
            this.actions = enabled;
            return this;
        }

        /**
         * The access token every request shows: {@code Authorization: Bearer <token>}, or the cookie an opening
         * with {@code ?token=<token>} sets. At least 16 characters of letters, digits and {@code -._~}. Without
         * one, the host's security (where mounted) decides who comes in.
         */
        public Builder token(String token) {
            if (token == null || !token.matches("[A-Za-z0-9._~-]{16,256}")) {
                throw new IllegalArgumentException("Dashboard.token(..) takes 16 to 256 letters, digits or -._~"
                        + " (so it fits a cookie and a header unchanged)");
            }
            this.token = token;
            return this;
        }

        /**
         * Also answers requests whose Host is {@code hostAndPort} (such as {@code queues.internal:8089}), the name
         * a proxy or the mounting service is reached by. The served address is allowed without this.
         */
        public Builder allowHost(String hostAndPort) {
            hosts.add(Objects.requireNonNull(hostAndPort, "hostAndPort"));
            return this;
        }

        /** The clock the page's "read at" time comes from (default the system's UTC clock). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** The dashboard. */
        public Dashboard build() {
            if (queues.isEmpty()) {
                throw new IllegalStateException("a dashboard shows at least one queue: name it with queue(..)");
            }
            return new Dashboard(this);
        }
    }
}
