package dev.tablequeue.outbox;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.transport.PublishMiddleware;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record;

/** The table broker: every name is routed into one inbox table of the test's database, a group per name. */
final class TableTestTransport implements TestTransport {
    static final Kind KIND = new Kind() {
        @Override
        public TestTransport open(Outbox outbox, List<PublishMiddleware> inner, DataSource pool,
                OutboxDatabase database, String suffix) {
            return new TableTestTransport(outbox, inner, pool, database, suffix);
        }

        @Override
        public String label() {
            return "table";
        }
    };

    private final QueueBroker broker;
    private final RoleBinding<Record> inbox;

    TableTestTransport(Outbox outbox, List<PublishMiddleware> inner, DataSource pool, OutboxDatabase database,
            String suffix) {
        String name = "inbox_" + suffix;
        try (var c = pool.getConnection(); var s = c.createStatement()) {
            s.execute(database.inbox(name));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        this.inbox = new InboxTable(name, database.timeType()).binding();
        QueueBroker.Builder b = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50))
                .drainTimeout(Duration.ofSeconds(10)).route("*", inbox)
                .publishMiddleware(outbox.publishMiddleware());
        inner.forEach(b::publishMiddleware);
        this.broker = b.handlerMiddleware(outbox.handlerMiddleware()).build();
    }

    @Override
    public <T> void subscribe(String name, Class<T> type, int workers, Handler<T> handler) {
        broker.subscribe(InboxQueue.of(inbox, name)).payload(type).workers(workers).handle(handler);
    }

    @Override
    public void start() {
        broker.start();
    }

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload) {
        if (ctx == null) {
            return broker.publisher().publish(Message.of(name, payload));
        }
        return broker.publisher().publish(ctx, Message.of(name, payload));
    }

    @Override
    public String handle() {
        return inbox.tableName();
    }

    @Override
    public Sender sender() {
        return Sender.of(broker.publisher());
    }

    @Override
    public void close() {
        broker.close();
    }
}
