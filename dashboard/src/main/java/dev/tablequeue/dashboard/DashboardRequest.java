package dev.tablequeue.dashboard;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request as {@link Dashboard#handle} reads it, whatever server received it: the JDK's (through
 * {@link DashboardServer}) or a host that mounts the dashboard.
 *
 * @param method the HTTP method, such as {@code GET} or {@code POST}
 * @param path the path below the dashboard's mount point: {@code /}, {@code /confirm} or {@code /run}
 * @param headers the request's headers (one value each; names in any case)
 * @param query the decoded parameters of the query string
 * @param form the decoded fields of an {@code application/x-www-form-urlencoded} body (empty for a GET)
 */
public record DashboardRequest(String method, String path, Map<String, String> headers, Map<String, String> query,
        Map<String, String> form) {

    public DashboardRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        TreeMap<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        h.putAll(headers);
        headers = java.util.Collections.unmodifiableMap(h);
        query = Map.copyOf(query);
        form = Map.copyOf(form);
    }

    /** The value of header {@code name} (in any case), if the request has it. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name));
    }
}
