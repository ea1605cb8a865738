package dev.tablequeue.spring;

import dev.tablequeue.dashboard.Dashboard;
import dev.tablequeue.dashboard.DashboardRequest;
import dev.tablequeue.dashboard.DashboardResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The {@link Dashboard} mounted in the application's servlet context: it passes each request, with its path
 * below the mount point, to {@link Dashboard#handle} and writes the answer. It sits behind the application's
 * filters, Spring Security's among them, so the service's own security decides who reaches the page.
 */
public class TableQueueDashboardServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    /** Where the dashboard comes from: null until the broker's handlers are subscribed. */
    private final transient Supplier<Dashboard> dashboard;

    /** A servlet over the dashboard {@code dashboard} supplies once the broker's queues are known. */
    public TableQueueDashboardServlet(Supplier<Dashboard> dashboard) {
        this.dashboard = dashboard;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String below = request.getPathInfo();
        if (below == null) {
            // the mount point without its slash: the page's relative links need the slash
            response.setStatus(HttpServletResponse.SC_MOVED_PERMANENTLY);
            response.setHeader("Location", request.getRequestURI() + "/");
            return;
        }
        Dashboard d = dashboard.get();
        if (d == null) {
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    "no tablequeue dashboard: the broker serves no queue (yet)");
            return;
        }
        DashboardResponse answer = d.handle(new DashboardRequest(request.getMethod(), below, headers(request),
                parameters(request, false), parameters(request, true)));
        response.setStatus(answer.status());
        answer.headers().forEach(response::setHeader);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        if (body.length > 0 && !request.getMethod().equalsIgnoreCase("HEAD")) {
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    private static Map<String, String> headers(HttpServletRequest request) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : Collections.list(request.getHeaderNames())) {
            headers.put(name, request.getHeader(name));
        }
        return headers;
    }

    /**
     * The query's parameters ({@code form} false) or, for a POST of a form, its fields ({@code form} true); the
     * first of a repeated name wins, as with the dashboard's own server.
     */
    private static Map<String, String> parameters(HttpServletRequest request, boolean form) {
        boolean isForm = request.getMethod().equalsIgnoreCase("POST") && request.getContentType() != null
                && request.getContentType().startsWith("application/x-www-form-urlencoded");
        Map<String, String> params = new LinkedHashMap<>();
        if (form != isForm) {
            return params;
        }
        request.getParameterMap().forEach((name, values) -> {
            if (values.length > 0) {
                params.put(name, values[0]);
            }
        });
        return params;
    }
}
