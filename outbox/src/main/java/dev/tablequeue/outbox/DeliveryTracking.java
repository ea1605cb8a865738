package dev.tablequeue.outbox;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.transport.HandlerMiddleware;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's handler middleware. A delivery of a registered name whose {@link Outbox#ID_HEADER} holds a
 * valid id is tracked: its record is read by that id (on a connection returned before the handler runs);
 * a processed record is acknowledged without the handler (a duplicate), a record that cannot be read
 * retries the delivery without the handler, and otherwise the handler's outcome settles the record (an
 * acknowledgement or a drop marks it processed, a retry leaves it for the republish). A mark that fails is
 * logged and the handler's outcome kept. A copy that arrives while another copy of its record is in a
 * handler of this process waits a moment and comes back, when the record is processed. A delivery without a
 * valid id, or whose record is done on the broker's confirmation ({@link OutboxHeaders#DONE}), runs untracked.
 */
final class DeliveryTracking implements HandlerMiddleware {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryTracking.class);
    /** How long a copy whose record is in a handler of this process waits before it comes back. */
    static final Duration IN_WORK_WAIT = Duration.ofMillis(200);

    private final Outbox outbox;
    private final DataSource dataSource;
    private final Set<InWork> inWork = ConcurrentHashMap.newKeySet();

    private record InWork(String table, Object id) {}

    DeliveryTracking(Outbox outbox, DataSource dataSource) {
        this.outbox = outbox;
        this.dataSource = dataSource;
    }

    @Override
    public Outcome handle(String name, Delivery delivery, Next next) throws Exception {
        Registration r = outbox.registration(name);
        String text = r == null ? null : delivery.headers().get(Outbox.ID_HEADER);
        Object id = text == null ? null : r.statements().parseId(text);
        if (id == null || OutboxHeaders.CONFIRMED.equals(delivery.headers().get(OutboxHeaders.DONE))) {
            // a record done on the broker's confirmation is processed once sent: it says nothing of this handler,
            // so such a message runs untracked and the consumer dedups it by its id
            return next.call();
        }
        InWork key = new InWork(r.binding().tableName(), id);
        if (!inWork.add(key)) {
            return Outcome.retryAfter(IN_WORK_WAIT);
        }
        try {
            boolean processed;
            try (Connection c = dataSource.getConnection()) {
                processed = processed(r, c, id);
            } catch (SQLException | RuntimeException e) {
                LOG.warn("the outbox record {} of \"{}\" ({}) cannot be read; the delivery is retried without its"
                        + " handler: {}", id, r.binding().tableName(), name, e.toString());
                return Outcome.retry();
            }
            if (processed) {
                return Outcome.ack();
            }
            Outcome outcome = next.call();
            settle(r, id, outcome);
            return outcome;
        } finally {
            inWork.remove(key);
        }
    }

    private boolean processed(Registration r, Connection c, Object id) throws SQLException {
        if (r.binding().owns(OutboxEvent.FETCH)) {
            return ((OwnRecords.Fetch) r.binding().own(OutboxEvent.FETCH))
                    .processed(DSL.using(c, r.statements().dialect().sqlDialect()), id);
        }
        return r.statements().processed(c, id);
    }

    private void settle(Registration r, Object id, Outcome outcome) {
        OutboxEvent event = switch (outcome) {
            case Outcome.Ack a -> OutboxEvent.ACK;
            case Outcome.Drop d -> OutboxEvent.DROP;
            // the message goes to a dead letter: its record is finished, and the republish must not send it again
            case Outcome.DeadLetter d -> OutboxEvent.DROP;
            case Outcome.Retry t -> OutboxEvent.RETRY;
            case Outcome.RetryAfter t -> OutboxEvent.RETRY;
        };
        if (event == OutboxEvent.RETRY && !r.binding().owns(OutboxEvent.RETRY)) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            if (r.binding().owns(event)) {
                ((OwnRecords.Settle) r.binding().own(event))
                        .settle(DSL.using(c, r.statements().dialect().sqlDialect()), id);
            } else {
                r.statements().ack(c, id);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the outbox record {} of \"{}\" was not marked after its {} ({}); the handler's outcome stands and"
                    + " the republish sends the record again: {}", id, r.binding().tableName(), event, r.name(),
                    e.toString());
        }
    }
}
