package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.QueueBroker;
import java.util.List;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * What the table broker and the registry do the same on every database, proven on SQLite: a batch published
 * into a queue table (publishAll) passes the publish middlewares message by message, each tracked message
 * recorded with its own id.
 */
class SqliteOutboxIT extends OutboxFixture {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return TableTestTransport.KIND;
    }

    @Test
    void every_tracked_message_of_a_batch_is_recorded_and_carries_its_own_id() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        String inboxName = "inbox_batch" + TABLES.incrementAndGet();
        db.execute(database().inbox(inboxName));
        var inbox = new InboxTable(inboxName, database().timeType());
        QueueBroker broker = QueueBroker.builder(pool).route("*", inbox.binding())
                .publishMiddleware(outbox.publishMiddleware()).build();
        opened.add(broker::close);

        broker.publisher().publishAll(inbox.binding(), List.of(Message.of("orders", new Order(1)),
                Message.of("audit", new Order(2))));
        dsl(outbox).transaction(cfg -> broker.publisher().publishAll(DSL.using(cfg), inbox.binding(),
                List.of(Message.of("orders", new Order(3)), Message.of("orders", new Order(4)))));

        List<Long> ids = ids(t);
        assertThat(ids).hasSize(3);
        List<String> headers = dsl().select(inbox.HEADERS).from(inbox).orderBy(inbox.ID).fetch(inbox.HEADERS);
        assertThat(headers).hasSize(4);
        assertThat(headers.get(0)).contains("\"" + Outbox.ID_HEADER + "\":\"" + ids.get(0) + "\"");
        assertThat(headers.get(1)).doesNotContain(Outbox.ID_HEADER);
        assertThat(headers.get(2)).contains("\"" + ids.get(1) + "\"");
        assertThat(headers.get(3)).contains("\"" + ids.get(2) + "\"");
    }

    @Test
    void the_outbox_adds_a_channel_per_name_it_sends_with_the_record_id_header_to_the_asyncapi_document() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders", "invoices");
        QueueBroker broker = QueueBroker.builder(pool).build();
        opened.add(broker::close);

        com.fasterxml.jackson.databind.JsonNode doc = broker.asyncApi().with(outbox.asyncApi()).toTree();

        for (String name : List.of("orders", "invoices")) {
            assertThat(doc.at("/channels/" + name + "/address").asText()).isEqualTo(name);
            assertThat(doc.at("/channels/" + name + "/description").asText()).contains(t.getName());
            assertThat(doc.at("/operations/send_" + name + "/action").asText()).isEqualTo("send");
            assertThat(doc.at("/components/messages/" + name + "/headers/properties/" + Outbox.ID_HEADER + "/type")
                    .asText()).isEqualTo("string");
        }
    }
}
