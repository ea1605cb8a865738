package dev.tablequeue.broker;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jooq.Field;

/**
 * An AsyncAPI 3.0 document of what a service exchanges through its queue tables, built from declarations:
 * a channel per subscribed queue (its table and group) with a {@code receive} operation, a channel per route
 * with a {@code send} operation, and what {@linkplain #with(Part) parts} such as the outbox add. Each channel
 * has one message: its payload's JSON Schema (draft 7, derived from the payload type; the table's columns in
 * row mode; a binary string for raw bytes) and the headers the table keeps. It names tables, groups and
 * columns, and never an address, user or password of a data source or broker.
 *
 * <pre>{@code
 * String json = broker.asyncApi().info("orders", "1.4.0").with(outbox).toJson();
 * }</pre>
 */
public final class AsyncApi {
    /** Something that adds its channels to a document: the outbox's bindings, say. */
    public interface Part {
        /** Adds this part's channels to {@code document}, with {@link AsyncApi#sends} and {@link AsyncApi#receives}. */
        void describeTo(AsyncApi document);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String RAW_BYTES = "application/octet-stream";

    private String title = "tablequeue service";
    private String version = "1.0.0";
    private final Map<String, ObjectNode> channels = new LinkedHashMap<>();
    private final Map<String, ObjectNode> operations = new LinkedHashMap<>();
    private final Map<String, Message> messages = new LinkedHashMap<>();

    /**
     * One channel's message. Its payload is the JSON Schema of {@code type} where it has one (derived when the
     * document renders, so that the schemas of all types share one set of definitions), else {@code schema}.
     */
    private record Message(String name, String summary, Class<?> type, ObjectNode schema, String contentType,
            ObjectNode headers) {
        ObjectNode render(PayloadSchemas.Builder schemas) {
            ObjectNode m = JSON.createObjectNode();
            m.put("name", name);
            m.put("contentType", contentType);
            m.put("summary", summary);
            if (headers != null) {
                m.set("headers", headers.deepCopy());
            }
            m.set("payload", type != null ? schemas.reference(type) : schema.deepCopy());
            return m;
        }
    }

    AsyncApi() {}

    /** The document of a broker's subscriptions ({@code served}) and routes. */
    static AsyncApi of(List<ServedQueue> served, Map<String, QueueBroker.Route> routes) {
        AsyncApi document = new AsyncApi();
        served.forEach(document::receives);
        routes.forEach((name, route) -> document.sends(name, route.binding()));
        return document;
    }

    /** Sets the document's title and the version of the service it describes. */
    public AsyncApi info(String title, String version) {
        this.title = Objects.requireNonNull(title, "title");
        this.version = Objects.requireNonNull(version, "version");
        return this;
    }

    /** Adds what {@code part} describes. */
    public AsyncApi with(Part part) {
        part.describeTo(this);
        return this;
    }

    /**
     * Adds a channel this service sends to: {@code address} (a name, a topic), its message's payload of type
     * {@code payload} (null where any JSON value may go) and the headers it carries.
     */
    public AsyncApi sends(String address, String description, Class<?> payload, List<String> headers) {
        return operation("send", address, description, new Message(address, description, payload,
                JSON.createObjectNode(), "application/json", headersSchema(headers, null)));
    }

    /**
     * Adds a channel this service receives from, as {@link #sends} does: a consumer of another broker's topic,
     * say.
     */
    public AsyncApi receives(String address, String description, Class<?> payload, List<String> headers) {
        return operation("receive", address, description, new Message(address, description, payload,
                JSON.createObjectNode(), "application/json", headersSchema(headers, null)));
    }

    /** A subscription: receives the rows of its queue. */
    void receives(ServedQueue served) {
        InboxQueue<?> queue = served.queue();
        RoleBinding<?> binding = queue.binding();
        String address = queue.group() == null ? binding.tableName() : binding.tableName() + "/" + queue.group();
        String description = "Rows of table \"" + binding.tableName() + "\""
                + (queue.group() == null ? "" : " in group \"" + queue.group() + "\"")
                + ", claimed in the " + binding.form().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + " form by " + served.workers() + " worker(s)"
                + served.deadLetter().map(d -> "; spent rows go to " + d).orElse("") + ".";
        ObjectNode headers = headersSchema(List.of(), binding);
        Message message;
        if (served.rows()) {
            message = new Message(address, description, null, rowSchema(binding), "application/json", headers);
        } else if (served.payloadType() == byte[].class) {
            message = new Message(address, description, null, bytesSchema(binding), RAW_BYTES, headers);
        } else {
            message = new Message(address, description, served.payloadType(), null, "application/json", headers);
        }
        operation("receive", address, description, message);
    }

    /** A route: a publish under {@code name} (or any name it starts, for {@code prefix*}) writes a row of {@code binding}. */
    void sends(String name, RoleBinding<?> binding) {
        String description = "Publishes under \"" + name + "\" write a row into table \"" + binding.tableName()
                + "\", whose group is the message's name.";
        ObjectNode payload = binding.payloadMode() ? JSON.createObjectNode() : rowSchema(binding);
        if (binding.payloadMode()) {
            payload.put("description", "the message's payload, as the publisher's codec writes it");
        }
        String address = binding.tableName() + "/" + name;
        operation("send", address, description, new Message(address, description, null, payload, "application/json",
                headersSchema(List.of(), binding)));
    }

    private AsyncApi operation(String action, String address, String description, Message message) {
        String channelId = id(address);
        String messageId = channelId;
        messages.put(messageId, message);
        ObjectNode channel = channels.computeIfAbsent(channelId, x -> {
            ObjectNode c = JSON.createObjectNode();
            c.put("address", address);
            c.put("description", description);
            c.putObject("messages");
            return c;
        });
        ((ObjectNode) channel.get("messages")).putObject(messageId).put("$ref", "#/components/messages/" + messageId);
        ObjectNode operation = JSON.createObjectNode();
        operation.put("action", action);
        operation.putObject("channel").put("$ref", "#/channels/" + channelId);
        operation.putArray("messages").addObject().put("$ref", "#/channels/" + channelId + "/messages/" + messageId);
        operations.put(action + "_" + channelId, operation);
        return this;
    }

    /**
     * The headers a message carries: the names given, and the binding's headers (one JSON column: any string
     * values; a column per header: those names), or null where there are none.
     */
    private static ObjectNode headersSchema(List<String> names, RoleBinding<?> binding) {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        names.forEach(n -> properties.putObject(n).put("type", "string"));
        boolean any = !names.isEmpty();
        if (binding != null) {
            for (Field<?> column : binding.headerFields()) {
                properties.putObject(column.getName()).put("type", "string")
                        .put("description", "kept in column \"" + column.getName() + "\"");
                any = true;
            }
            if (binding.has(Role.HEADERS)) {
                schema.putObject("additionalProperties").put("type", "string");
                schema.put("description", "kept in column \"" + binding.column(Role.HEADERS).orElseThrow().getName()
                        + "\" as one JSON object");
                any = true;
            }
        }
        return any ? schema : null;
    }

    /** Row mode: the row's columns, each with the JSON type of its SQL type. */
    private static ObjectNode rowSchema(RoleBinding<?> binding) {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "object");
        schema.put("description", "a row of table \"" + binding.tableName() + "\"");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (Field<?> column : binding.rowColumns()) {
            properties.set(column.getName(), PayloadSchemas.ofColumn(column));
            if (!column.getDataType().nullable()) {
                required.add(column.getName());
            }
        }
        return schema;
    }

    private static ObjectNode bytesSchema(RoleBinding<?> binding) {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "string");
        schema.put("format", "binary");
        schema.put("description", "the payload's bytes as column \""
                + binding.column(Role.PAYLOAD).map(Field::getName).orElse("payload") + "\" holds them, undecoded");
        return schema;
    }

    /** An id the document's maps take (letters, digits, '.', '-', '_'). */
    private static String id(String address) {
        return address.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** The document as a JSON tree. */
    public ObjectNode toTree() {
        ObjectNode root = JSON.createObjectNode();
        root.put("asyncapi", "3.0.0");
        ObjectNode info = root.putObject("info");
        info.put("title", title);
        info.put("version", version);
        info.put("description", "Generated by tablequeue from the service's subscriptions, routes and outbox.");
        root.put("defaultContentType", "application/json");
        channels.forEach(root.putObject("channels")::set);
        operations.forEach(root.putObject("operations")::set);
        ObjectNode components = root.putObject("components");
        PayloadSchemas.Builder schemas = PayloadSchemas.builder();
        ObjectNode rendered = components.putObject("messages");
        messages.forEach((id, message) -> rendered.set(id, message.render(schemas)));
        ObjectNode definitions = schemas.definitions();
        if (!definitions.isEmpty()) {
            components.set("schemas", definitions);
        }
        return root;
    }

    /** The document as indented JSON. */
    public String toJson() {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(toTree());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the AsyncAPI document did not render: " + e.getMessage(), e);
        }
    }
}
