package dev.tablequeue.test;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.opentest4j.AssertionFailedError;

/**
 * A {@link BrokerListener} a test gives its broker (alone, or beside others with {@link BrokerListener#all}) to
 * wait on what the broker does, without sleeping: each wait returns as soon as the event it waits for is
 * reported, and fails with what it saw once its timeout passes.
 *
 * <pre>{@code
 * QueueWatch watch = new QueueWatch();
 * QueueBroker broker = QueueBroker.builder(db.dataSource()).listener(watch).build();
 * ...
 * watch.awaitSettled(id, Duration.ofSeconds(10));          // the row's first outcome was written
 * watch.awaitIdle(broker, queue, Duration.ofSeconds(10));  // nothing due in the queue, nothing in work
 * }</pre>
 */
public final class QueueWatch implements BrokerListener {
    /** How often a wait reads the queue again even when no event came (a row another process settled). */
    private static final long RECHECK_MILLIS = 100;

    /**
     * One outcome the broker wrote.
     *
     * @param table the row's table
     * @param queue the queue it was claimed from
     * @param id the row's id, as the driver gave it
     * @param attempt the attempt the delivery read; 0 where the table has no attempt column
     * @param outcome what was written
     */
    public record Settled(String table, String queue, Object id, int attempt, Outcome outcome) {
        /** Whether this is row {@code rowId}'s (compared as text, so {@code 7} finds a {@code Long} 7). */
        public boolean isOf(Object rowId) {
            return String.valueOf(id).equals(String.valueOf(rowId));
        }
    }

    private final Object monitor = new Object();
    private final List<Settled> settled = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    @Override
    public void settled(Delivery delivery, Outcome outcome) {
        record(new Settled(delivery.table(), delivery.queue(), delivery.id(), delivery.attempt().orElse(0), outcome));
    }

    @Override
    public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
        problem("the outcome " + outcome + " of row " + delivery.id() + " was not written: " + failure);
    }

    @Override
    public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
        problem("the outcome " + outcome + " of row " + delivery.id() + " may not have been written: " + failure);
    }

    @Override
    public void claimFailed(InboxQueue<?> queue, Throwable failure) {
        problem("a claim on " + queue + " failed: " + failure);
    }

    @Override
    public void decodeFailed(Delivery delivery, Throwable failure) {
        problem("row " + delivery.id() + " did not decode: " + failure);
    }

    @Override
    public void subscriptionStopped(InboxQueue<?> queue, Throwable cause) {
        problem("the subscription of " + queue + " stopped: " + cause);
    }

    @Override
    public void claimed(InboxQueue<?> queue, int rows, Duration took) {
        if (rows > 0) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
    }

    private void record(Settled s) {
        synchronized (monitor) {
            settled.add(s);
            monitor.notifyAll();
        }
    }

    private void problem(String what) {
        synchronized (monitor) {
            problems.add(what);
            monitor.notifyAll();
        }
    }

    /** Every outcome written so far, in the order reported. */
    public List<Settled> settlements() {
        synchronized (monitor) {
            return List.copyOf(settled);
        }
    }

    /**
     * What went wrong so far, in words: outcomes not written (or unknown), failed claims, rows that did not decode,
     * stopped subscriptions. A test that expects none asserts this is empty.
     */
    public List<String> problems() {
        synchronized (monitor) {
            return List.copyOf(problems);
        }
    }

    /** Waits for row {@code id}'s first outcome to be written, and returns it. */
    public Settled awaitSettled(Object id, Duration timeout) {
        return awaitSettled(id, o -> true, "an outcome", timeout);
    }

    /** Waits for row {@code id} to be acknowledged ({@link Outcome#ack()}), and returns that settlement. */
    public Settled awaitAcknowledged(Object id, Duration timeout) {
        return awaitSettled(id, o -> o instanceof Outcome.Ack, "an acknowledgement", timeout);
    }

    private Settled awaitSettled(Object id, Predicate<Outcome> which, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (true) {
                Optional<Settled> found = settled.stream().filter(s -> s.isOf(id) && which.test(s.outcome()))
                        .findFirst();
                if (found.isPresent()) {
                    return found.get();
                }
                if (!waitUntil(deadline)) {
                    List<Settled> ofRow = settled.stream().filter(s -> s.isOf(id)).toList();
                    throw new AssertionFailedError("row " + id + " did not get " + what + " within " + timeout
                            + "; its outcomes so far: " + ofRow + (problems.isEmpty() ? "" : "; problems: " + problems));
                }
            }
        }
    }

    /** Waits until {@code n} outcomes (of any row) have been written in all. */
    public void awaitSettlements(int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (settled.size() < n) {
                if (!waitUntil(deadline)) {
                    throw new AssertionFailedError(settled.size() + " outcome(s) written within " + timeout + ", not "
                            + n + (problems.isEmpty() ? "" : "; problems: " + problems), n, settled.size());
                }
            }
        }
    }

    /**
     * Waits until {@code queue} is idle: no row a claim would take now, and none in work (leased, in the lease
     * form; else {@code broker}'s deliveries). Rows due later (a retry after a delay) do not keep it from being
     * idle.
     */
    public void awaitIdle(QueueBroker broker, InboxQueue<?> queue, Duration timeout) {
        QueueAdmin admin = QueueAdmin.of(broker);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            // In the lease form the table says which rows are in work (a claim's rows are leased as it commits,
            // before the broker counts them); in the others a row in work is still a pending row.
            QueueStats stats = admin.stats(queue);
            boolean served = broker.queues().stream().anyMatch(q -> q.queue().equals(queue));
            long inWork = Math.max(stats.inWork().orElse(0), served ? broker.inWork(queue) : 0);
            if (stats.pending() == 0 && inWork == 0) {
                return;
            }
            synchronized (monitor) {
                if (!waitUntil(deadline)) {
                    throw new AssertionFailedError(queue + " was not idle within " + timeout + ": " + stats.pending()
                            + " row(s) pending, " + inWork + " in work"
                            + (problems.isEmpty() ? "" : "; problems: " + problems));
                }
            }
        }
    }

    /** Waits on the monitor for the next event, at most {@link #RECHECK_MILLIS}; false once the deadline passed. */
    private boolean waitUntil(long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return false;
        }
        try {
            long millis = Math.max(1, Math.min(RECHECK_MILLIS, left / 1_000_000));
            monitor.wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionFailedError("interrupted while waiting", e);
        }
        return true;
    }
}
