package dev.tablequeue.opentelemetry;

import dev.tablequeue.transport.OutgoingMessage;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Map;

/** A message's headers as a propagator reads and writes them. */
final class Headers {
    private Headers() {}

    /** Reads a delivery's (or an outgoing message's) headers. */
    static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    /** Writes a header onto an outgoing message, replacing one of the same name. */
    static final TextMapSetter<OutgoingMessage> SETTER = (message, key, value) -> {
        if (message != null) {
            message.header(key, value);
        }
    };
}
