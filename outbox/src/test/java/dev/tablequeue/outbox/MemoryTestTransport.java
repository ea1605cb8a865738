package dev.tablequeue.outbox;

import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.transport.PublishMiddleware;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;

/** The in-memory broker. */
final class MemoryTestTransport implements TestTransport {
    static final Kind KIND = new Kind() {
        @Override
        public TestTransport open(Outbox outbox, List<PublishMiddleware> inner, DataSource pool,
                OutboxDatabase database, String suffix) {
            return new MemoryTestTransport(outbox, inner);
        }

        @Override
        public String label() {
            return "memory";
        }
    };

    private final MemoryBroker broker;

    MemoryTestTransport(Outbox outbox, List<PublishMiddleware> inner) {
        MemoryBroker.Builder b = MemoryBroker.builder().publishMiddleware(outbox.publishMiddleware());
        inner.forEach(b::publishMiddleware);
        this.broker = b.handlerMiddleware(outbox.handlerMiddleware()).build();
    }

    @Override
    public <T> void subscribe(String name, Class<T> type, int workers, Handler<T> handler) {
        broker.subscribe(name, type, workers, handler);
    }

    @Override
    public void start() {}

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload) {
        return broker.publish(ctx, name, payload);
    }

    @Override
    public String handle() {
        return "";
    }

    @Override
    public Sender sender() {
        return broker::send;
    }

    @Override
    public void close() {
        broker.close();
    }
}
