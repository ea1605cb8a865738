package dev.tablequeue.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A {@link Dashboard} on the JDK's HTTP server ({@code com.sun.net.httpserver}): each request is read into a
 * {@link DashboardRequest} and answered by {@link Dashboard#handle}. Closing it stops the server.
 */
public final class DashboardServer implements AutoCloseable {
    /** The largest form body the server reads; the page's forms are a few hundred bytes. */
    private static final int MAX_BODY = 16 * 1024;

    private final HttpServer server;
    private final ExecutorService executor;

    private DashboardServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static DashboardServer start(Dashboard dashboard, InetSocketAddress address) throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        InetSocketAddress bound = server.getAddress();
        Set<String> hosts = new LinkedHashSet<>();
        String host = bound.getAddress().getHostAddress();
        hosts.add((host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort());
        if (bound.getAddress().isLoopbackAddress()) {
            hosts.add("localhost:" + bound.getPort());
        }
        dashboard.allowHosts(hosts);
        // two threads: an operator's page, and the next request while one reads the database
        ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "tablequeue-dashboard");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> answer(dashboard, exchange));
        server.start();
        return new DashboardServer(server, executor);
    }

    /** Where the server listens: {@code http://host:port/}. */
    public URI uri() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/");
    }

    /** Stops the server, letting an answer being written finish for up to a second. */
    @Override
    public void close() {
        server.stop(1);
        executor.shutdownNow();
    }

    private static void answer(Dashboard dashboard, HttpExchange exchange) throws IOException {
        try (exchange) {
            DashboardResponse response;
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                response = new DashboardResponse(413, Map.of("Content-Type", "text/plain; charset=utf-8"),
                        "The request's body is larger than " + MAX_BODY + " bytes.");
            } else {
                Map<String, String> headers = new LinkedHashMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, values.get(0)));
                boolean form = headers.entrySet().stream().anyMatch(e -> e.getKey().equalsIgnoreCase("Content-Type")
                        && e.getValue().startsWith("application/x-www-form-urlencoded"));
                URI uri = exchange.getRequestURI();
                response = dashboard.handle(new DashboardRequest(exchange.getRequestMethod(), uri.getRawPath(),
                        headers, decode(uri.getRawQuery()),
                        form ? decode(new String(body, StandardCharsets.UTF_8)) : Map.of()));
            }
            response.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            byte[] out = response.body().getBytes(StandardCharsets.UTF_8);
            boolean head = exchange.getRequestMethod().equalsIgnoreCase("HEAD");
            exchange.sendResponseHeaders(response.status(), head || out.length == 0 ? -1 : out.length);
            if (!head && out.length > 0) {
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            }
        }
    }

    /** The body, or null where it is larger than {@link #MAX_BODY}. */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY + 1);
        return body.length > MAX_BODY ? null : body;
    }

    /** The parameters of a query string or form body; the first of a repeated name wins. */
    static Map<String, String> decode(String encoded) {
        Map<String, String> params = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return params;
        }
        for (String pair : encoded.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            try {
                params.putIfAbsent(URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                // a malformed escape: the parameter is left out, and the check of what is missing says so
            }
        }
        return params;
    }
}
