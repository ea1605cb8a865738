package dev.tablequeue.broker;

import dev.tablequeue.TransactionHeldException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.transport.HandlerMiddleware;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a delivery's handler answers: the row decoded (its payload through the codec, or the row itself),
 * the handler run through the broker's middlewares, and the mount's failure policy where the row did not
 * decode or the handler threw.
 */
final class Handling<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Handling.class);

    private final QueueBroker broker;
    private final Mount<T> mount;
    private final Handler<T> handler;
    private final InboxQueue<?> queue;
    private final RoleBinding<?> binding;
    private final SettlementPlanner planner;
    /** Released when the subscription stops: a failed delivery held before its retry is let go then. */
    private final CountDownLatch stopping;

    Handling(Mount<T> mount, Handler<T> handler, SettlementPlanner planner, CountDownLatch stopping) {
        this.broker = mount.broker;
        this.mount = mount;
        this.handler = handler;
        this.queue = mount.queue;
        this.binding = mount.queue.binding();
        this.planner = planner;
        this.stopping = stopping;
    }

    /**
     * What the handler answers, or the failure policy where the row did not decode or the handler threw;
     * null where the row is to be written nothing (a transactional delivery whose transaction did not open).
     */
    Outcome outcome(InWork d) {
        return d.transaction() == null ? answer(d) : inTransaction(d);
    }

    /**
     * Opens the delivery's transaction, runs the handler, and decides the fate of what it wrote: kept for an
     * acknowledgement the handler itself returned, rolled back otherwise (a failure policy's acknowledgement
     * included), and rolled back too where the handler returned while a statement of its own still ran on
     * the transaction, which then settles as a handler failure.
     */
    private Outcome inTransaction(InWork d) {
        DeliveryTransaction tx = d.transaction();
        try {
            tx.open();
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the transaction of row {} of table \"{}\" (queue {}) did not open, so its handler did not run;"
                    + " the row is written nothing and returns by its form's rule: {}", d.id(), binding.tableName(),
                    queue, e.toString());
            tx.decide(false);
            return null;
        }
        Outcome outcome;
        try {
            outcome = answer(d);
        } finally {
            if (tx.endHandler()) {
                d.failure = null;
                outcome = null;
            }
        }
        if (outcome == null) {
            TransactionHeldException held = new TransactionHeldException("the handler of " + queue + " returned"
                    + " while a statement of its own still ran on the transaction of row " + d.id() + " of table \""
                    + binding.tableName() + "\": its writes are rolled back and the delivery settles as a failed one");
            outcome = policy(mount.onHandlerFailure, d, held);
            LOG.warn("{}; the row {}", held.getMessage(), planner.fate(d.attempt(), outcome));
        }
        tx.decide(outcome instanceof Outcome.Ack && d.failure == null);
        return outcome;
    }

    private Outcome answer(InWork d) {
        T message;
        try {
            message = decode(d.row);
        } catch (Exception e) {
            return held(d, decodeFailed(d, e));
        }
        try {
            T decoded = message;
            HandlerMiddleware.Next call = broker.middlewares.handles()
                    ? () -> broker.middlewares.handle(queue.name(), d, () -> handler.handle(decoded, d))
                    : () -> handler.handle(decoded, d);
            DeliveryTransaction tx = d.transaction();
            Outcome outcome = tx != null && broker.handlerScope != null
                    ? broker.handlerScope.around(d, tx.held(), call)
                    : call.call();
            if (outcome == null) {
                throw new IllegalStateException("the handler of " + queue + " returned no outcome");
            }
            return outcome;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return policy(mount.onHandlerFailure, d, e);
        } catch (Exception e) {
            // an Error is not caught here: the subscription stops on it
            Outcome outcome = policy(mount.onHandlerFailure, d, e);
            LOG.warn("the handler of {} failed on row {}, which {}", queue, d.id(), planner.fate(d.attempt(), outcome),
                    e);
            return held(d, outcome);
        }
    }

    /** The decode policy's outcome for a row that did not decode, which is logged as an error. */
    private Outcome decodeFailed(InWork d, Exception e) {
        broker.listener.decodeFailed(d, e);
        Outcome outcome = policy(mount.onDecodeFailure, d, e);
        LOG.error("row {} of table \"{}\" (queue {}) does not decode and {}: {}", d.id(), binding.tableName(),
                queue, planner.fate(d.attempt(), outcome), e.toString());
        return outcome;
    }

    /**
     * What a batch handler answers for the rows of one claim, one outcome per row in claim order: a row that
     * does not decode is settled by the decode policy and the batch goes on without it; where the handler
     * throws (or answers the wrong number of outcomes), each of its rows is settled by the handler failure
     * policy. Rows whose delayed retry their table cannot hide are held once for the batch, not one by one.
     */
    List<Settlement.Pending> batchOutcomes(List<InWork> ds) {
        List<Settlement.Pending> answers = new ArrayList<>(ds.size());
        List<T> messages = new ArrayList<>(ds.size());
        List<InWork> decoded = new ArrayList<>(ds.size());
        for (InWork d : ds) {
            try {
                messages.add(decode(d.row));
                decoded.add(d);
            } catch (Exception e) {
                answers.add(new Settlement.Pending(d, decodeFailed(d, e)));
            }
        }
        if (decoded.isEmpty()) {
            return holdOnce(answers);
        }
        BatchOutcome answer = null;
        Exception failure = null;
        try {
            answer = mount.batchHandler.handle(List.copyOf(messages), List.copyOf(decoded));
            if (answer == null) {
                throw new IllegalStateException("the batch handler of " + queue + " returned no outcome");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = e;
        } catch (Exception e) {
            // an Error is not caught here: the subscription stops on it
            failure = e;
        }
        for (int i = 0; i < decoded.size(); i++) {
            InWork d = decoded.get(i);
            Outcome outcome = null;
            Exception rowFailure = failure;
            if (rowFailure == null) {
                try {
                    outcome = answer.outcome(i, decoded.size());
                } catch (RuntimeException e) {
                    rowFailure = e;
                }
            }
            if (rowFailure != null) {
                outcome = policy(mount.onHandlerFailure, d, rowFailure);
                LOG.warn("the batch handler of {} failed on a batch of {} rows; row {} {}", queue, decoded.size(),
                        d.id(), planner.fate(d.attempt(), outcome), i == 0 ? rowFailure : null);
            }
            answers.add(new Settlement.Pending(d, outcome));
        }
        return holdOnce(answers);
    }

    /** {@link #held} for a batch: one hold, the longest any of its rows needs, then each such row returns. */
    private List<Settlement.Pending> holdOnce(List<Settlement.Pending> answers) {
        Outcome.RetryAfter longest = null;
        for (Settlement.Pending p : answers) {
            if (p.outcome() instanceof Outcome.RetryAfter r && !planner.hidesRows() && !planner.spent(p.d().attempt())
                    && (longest == null || r.delay().compareTo(longest.delay()) > 0)) {
                longest = r;
            }
        }
        if (longest == null) {
            return answers;
        }
        List<Settlement.Pending> returned = new ArrayList<>(answers.size());
        Outcome retry = held(answers.get(0).d(), longest);
        for (Settlement.Pending p : answers) {
            boolean heldRow = p.outcome() instanceof Outcome.RetryAfter && !planner.spent(p.d().attempt());
            returned.add(heldRow ? new Settlement.Pending(p.d(), retry) : p);
        }
        return returned;
    }

    private Outcome policy(FailurePolicy policy, InWork d, Throwable failure) {
        d.failure = failure;
        try {
            Outcome outcome = policy.settle(d, failure);
            return outcome == null ? Outcome.retry() : outcome;
        } catch (RuntimeException e) {
            LOG.warn("the failure policy of {} threw; retrying {}: {}", queue, d, e.toString());
            return Outcome.retry();
        }
    }

    /**
     * A failure policy's delayed retry on a table that cannot hide its row (no retryAfter column): the worker
     * holds the delivery for the delay (at most {@link Backoff#MOST_HELD_SECONDS}), or until the subscription
     * stops, and then returns the row at once. Returning it at once without the hold would deliver a failing
     * row again at full speed, for ever where no cap is declared.
     */
    private Outcome held(InWork d, Outcome outcome) {
        if (!(outcome instanceof Outcome.RetryAfter r) || planner.hidesRows() || planner.spent(d.attempt())) {
            return outcome;
        }
        long nanos = Math.min(r.delay().toNanos(), TimeUnit.SECONDS.toNanos(Backoff.MOST_HELD_SECONDS));
        try {
            stopping.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Outcome.retry();
    }

    @SuppressWarnings("unchecked")
    private T decode(ClaimedRow row) throws Exception {
        if (row.decodeFailure() != null) {
            throw row.decodeFailure() instanceof Exception e ? e : new IllegalStateException(row.decodeFailure());
        }
        if (mount.rows) {
            return (T) row.record();
        }
        if (row.payload() == null) {
            throw new IllegalStateException("the payload column of row " + row.id() + " is NULL");
        }
        T message = broker.codec.decode(row.payload(), mount.payloadType);
        if (message == null) {
            // a handler is never handed null: JSON null (or a codec's empty answer) carries no message
            throw new IllegalStateException("the payload of row " + row.id() + " decodes to null");
        }
        return message;
    }
}
