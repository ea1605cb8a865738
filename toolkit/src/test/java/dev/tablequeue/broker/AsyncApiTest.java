package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QueueBroker#asyncApi()}: a valid AsyncAPI 3.0 document (checked against the official schema of
 * {@code @asyncapi/specs}), with a channel per subscription and route, payload schemas from their types, and no
 * credential of the data source.
 */
class AsyncApiTest {
    private static final String USER = "svc_reader";
    private static final String PASSWORD = "pw-7f3a9c";

    record Address(String street, String city) {}

    record Email(String to, String subject, Address billing, Address shipping, List<String> tags) {}

    private static final Table<Record> EMAIL_JOBS = DSL.table(DSL.name("email_jobs"));
    private static final Field<Long> ID = DSL.field(DSL.name("id"), SQLDataType.BIGINT.nullable(false));
    private static final Field<String> NAME = DSL.field(DSL.name("name"), SQLDataType.VARCHAR(100).nullable(false));
    private static final Field<Integer> ATTEMPT = DSL.field(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false));
    private static final Field<byte[]> PAYLOAD = DSL.field(DSL.name("payload"), SQLDataType.BLOB);
    private static final Field<String> HEADERS = DSL.field(DSL.name("headers"), SQLDataType.CLOB);
    private static final Field<OffsetDateTime> LOCKED_UNTIL =
            DSL.field(DSL.name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE);

    private static final RoleBinding<Record> EMAILS = RoleBinding.of(EMAIL_JOBS, ID)
            .group(NAME).attempt(ATTEMPT).lease(LOCKED_UNTIL).headers(HEADERS).payload(PAYLOAD).build();

    private static final Table<Record> INVOICES = DSL.table(DSL.name("invoices"));
    private static final Field<Long> INVOICE_ID = DSL.field(DSL.name("invoice_id"), SQLDataType.BIGINT.nullable(false));
    private static final Field<String> CUSTOMER = DSL.field(DSL.name("customer"), SQLDataType.VARCHAR(200));
    private static final Field<Integer> CENTS = DSL.field(DSL.name("cents"), SQLDataType.INTEGER.nullable(false));
    private static final Field<OffsetDateTime> DUE =
            DSL.field(DSL.name("due"), SQLDataType.TIMESTAMPWITHTIMEZONE.nullable(false));
    private static final Field<OffsetDateTime> INVOICE_LEASE =
            DSL.field(DSL.name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE);

    private static final RoleBinding<Record> INVOICE_ROWS = RoleBinding.of(INVOICES, INVOICE_ID)
            .lease(INVOICE_LEASE).data(CUSTOMER, CENTS, DUE).build();

    @TempDir
    Path dir;
    private HikariDataSource pool;
    private QueueBroker broker;

    @BeforeEach
    void broker() {
        pool = new HikariDataSource();
        pool.setJdbcUrl("jdbc:sqlite:" + dir.resolve("asyncapi.db"));
        pool.setUsername(USER);
        pool.setPassword(PASSWORD);
        pool.setMaximumPoolSize(4);
        broker = QueueBroker.builder(pool).route("orders.*", EMAILS).build();
        broker.subscribe(InboxQueue.of(EMAILS, "emails")).payload(Email.class).workers(3)
                .maxAttempts(5).deadLetter("escalated").handle((email, delivery) -> Outcome.ack());
        broker.subscribe(InboxQueue.of(EMAILS, "raw")).bytes().handle((bytes, delivery) -> Outcome.ack());
        broker.subscribe(InboxQueue.of(INVOICE_ROWS, "invoices")).rows().handle((row, delivery) -> Outcome.ack());
    }

    @AfterEach
    void close() {
        broker.close();
        pool.close();
    }

    @Test
    void the_document_is_valid_asyncapi_3_0() throws IOException {
        assertThat(validate(broker.asyncApi().info("mail", "2.1.0").toJson())).isEmpty();
    }

    @Test
    void the_validator_refuses_a_document_that_breaks_the_schema() throws IOException {
        ObjectNode broken = broker.asyncApi().toTree();
        ((ObjectNode) broken.get("operations").elements().next()).remove("action");
        assertThat(validate(broken.toString())).isNotEmpty();
    }

    @Test
    void each_subscription_receives_on_a_channel_of_its_table_and_group() {
        JsonNode doc = broker.asyncApi().toTree();

        assertThat(doc.at("/channels/email_jobs_emails/address").asText()).isEqualTo("email_jobs/emails");
        assertThat(doc.at("/channels/email_jobs_emails/description").asText())
                .contains("lease form", "3 worker(s)", "escalated");
        assertThat(doc.at("/operations/receive_email_jobs_emails/action").asText()).isEqualTo("receive");
        assertThat(doc.at("/operations/receive_email_jobs_emails/channel/$ref").asText())
                .isEqualTo("#/channels/email_jobs_emails");
        assertThat(doc.at("/channels/invoices/address").asText()).isEqualTo("invoices");
        assertThat(doc.at("/operations/send_email_jobs_orders._/action").asText()).isEqualTo("send");
        assertThat(doc.at("/channels/email_jobs_orders._/address").asText()).isEqualTo("email_jobs/orders.*");
    }

    @Test
    void a_payload_type_is_described_by_its_json_schema_with_shared_definitions() {
        JsonNode doc = broker.asyncApi().toTree();
        JsonNode payload = resolve(doc, doc.at("/components/messages/email_jobs_emails/payload"));

        assertThat(payload.at("/type").asText()).isEqualTo("object");
        assertThat(payload.at("/properties/to/type").asText()).isEqualTo("string");
        assertThat(payload.at("/properties/tags/type").asText()).isEqualTo("array");
        JsonNode billing = resolve(doc, payload.at("/properties/billing"));
        assertThat(billing.at("/properties/city/type").asText()).isEqualTo("string");
        // Address appears twice, so it is a definition both properties point to
        assertThat(payload.at("/properties/shipping/$ref").asText())
                .isEqualTo(payload.at("/properties/billing/$ref").asText()).startsWith("#/components/schemas/");
        assertThat(doc.at("/components/messages/email_jobs_emails/contentType").asText()).isEqualTo("application/json");
    }

    @Test
    void raw_bytes_and_rows_are_described_as_what_they_are() {
        JsonNode doc = broker.asyncApi().toTree();

        JsonNode raw = doc.at("/components/messages/email_jobs_raw");
        assertThat(raw.at("/contentType").asText()).isEqualTo("application/octet-stream");
        assertThat(raw.at("/payload/format").asText()).isEqualTo("binary");

        JsonNode row = doc.at("/components/messages/invoices/payload");
        assertThat(row.at("/properties/cents/type").asText()).isEqualTo("integer");
        assertThat(row.at("/properties/due/format").asText()).isEqualTo("date-time");
        assertThat(row.at("/properties/customer/type").asText()).isEqualTo("string");
        assertThat(row.at("/required").toString()).contains("cents", "due").doesNotContain("customer");
    }

    @Test
    void the_headers_a_table_keeps_are_the_messages_headers() {
        JsonNode doc = broker.asyncApi().toTree();

        JsonNode headers = doc.at("/components/messages/email_jobs_emails/headers");
        assertThat(headers.at("/type").asText()).isEqualTo("object");
        assertThat(headers.at("/additionalProperties/type").asText()).isEqualTo("string");
        assertThat(headers.at("/description").asText()).contains("headers");
        assertThat(doc.at("/components/messages/invoices/headers").isMissingNode()).isTrue();
    }

    @Test
    void a_part_adds_its_channels() throws IOException {
        AsyncApi.Part outbox = document -> document.sends("order-events", "recorded in order_outbox", Email.class,
                List.of("tablequeue-outbox-id"));
        String json = broker.asyncApi().with(outbox).toJson();

        assertThat(validate(json)).isEmpty();
        JsonNode doc = broker.asyncApi().with(outbox).toTree();
        assertThat(doc.at("/operations/send_order-events/action").asText()).isEqualTo("send");
        assertThat(doc.at("/components/messages/order-events/headers/properties/tablequeue-outbox-id/type").asText())
                .isEqualTo("string");
    }

    @Test
    void the_document_names_no_address_user_or_password_of_the_data_source() {
        String json = broker.asyncApi().toJson();

        assertThat(json).doesNotContain(PASSWORD, USER, "jdbc:", dir.toString());
    }

    /** Follows a local {@code $ref}, where the node is one. */
    private static JsonNode resolve(JsonNode doc, JsonNode node) {
        String ref = node.path("$ref").asText("");
        return ref.startsWith("#") ? doc.at(ref.substring(1)) : node;
    }

    private static List<String> validate(String json) throws IOException {
        Files.writeString(Path.of("target", "asyncapi-test.json"), json);
        return AsyncApiSchema.errors(json);
    }
}
