package dev.tablequeue.test;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.PublishResult;
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
 * PublishResult published = broker.publisher().publish(SEND_EMAIL, Message.of("welcome", email));
 * watch.awaitAcknowledged(published, Duration.ofSeconds(10)); // that row was acknowledged
 * watch.awaitSettled(id, Duration.ofSeconds(10));          // row id's first outcome was written
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
        return awaitSettled(null, id, o -> true, "an outcome", timeout);
    }

    /** Waits for row {@code id} to be acknowledged ({@link Outcome#ack()}), and returns that settlement. */
    public Settled awaitAcknowledged(Object id, Duration timeout) {
        return awaitSettled(null, id, o -> o instanceof Outcome.Ack, "an acknowledgement", timeout);
    }

    /**
     * Waits for the first outcome of the row a publish wrote (its id, in its table), and returns it.
     *
     * <pre>{@code
     * PublishResult published = broker.publisher().publish(binding, Message.of("welcome", email));
     * watch.awaitSettled(published, Duration.ofSeconds(10));
     * }</pre>
     *
     * @throws IllegalArgumentException where the publish wrote no row, or its id is unknown (an own insert)
     */
    public Settled awaitSettled(PublishResult published, Duration timeout) {
        return awaitSettled(published.table(), rowId(published), o -> true, "an outcome", timeout);
    }

    /**
     * Waits for the row a publish wrote (its id, in its table) to be acknowledged, and returns that settlement.
     *
     * @throws IllegalArgumentException where the publish wrote no row, or its id is unknown (an own insert)
     */
    public Settled awaitAcknowledged(PublishResult published, Duration timeout) {
        return awaitSettled(published.table(), rowId(published), o -> o instanceof Outcome.Ack,
                "an acknowledgement", timeout);
    }

    private static Object rowId(PublishResult published) {
        if (!published.inserted() || published.id() == null) {
            throw new IllegalArgumentException("the publish (" + published + ") reports no row id to wait for: "
                    + (published.inserted() ? "the service's own insert wrote the row; give its id in the"
                    + " message's values, or wait by the id" : "it wrote no row"));
        }
        return published.id();
    }

    /** Waits for an outcome {@code which} of row {@code id} of {@code table} (null: of any table). */
    private Settled awaitSettled(String table, Object id, Predicate<Outcome> which, String what, Duration timeout) {
        Predicate<Settled> ofRow = s -> s.isOf(id) && (table == null || table.equals(s.table()));
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (true) {
                Optional<Settled> found = settled.stream().filter(s -> ofRow.test(s) && which.test(s.outcome()))
                        .findFirst();
                if (found.isPresent()) {
                    return found.get();
                }
                if (!waitUntil(deadline)) {
                    List<Settled> outcomes = settled.stream().filter(ofRow).toList();
                    throw new AssertionFailedError("row " + id + (table == null ? "" : " of \"" + table + "\"")
                            + " did not get " + what + " within " + timeout
                            + "; its outcomes so far: " + outcomes + (problems.isEmpty() ? "" : "; problems: " + problems));
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
