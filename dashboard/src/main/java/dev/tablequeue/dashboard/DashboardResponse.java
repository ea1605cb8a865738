package dev.tablequeue.dashboard;

import java.util.Map;

/**
 * What {@link Dashboard#handle} answers: a status, headers (the content type among them) and a body, for the
 * server that received the request to send.
 *
 * @param status the HTTP status
 * @param headers the response's headers
 * @param body the body, UTF-8 text (empty for a redirect)
 */
public record DashboardResponse(int status, Map<String, String> headers, String body) {

    public DashboardResponse {
        headers = Map.copyOf(headers);
    }
}
