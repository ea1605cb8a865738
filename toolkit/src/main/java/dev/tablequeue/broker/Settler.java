package dev.tablequeue.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a subscription's outcomes on a platform thread of its own, many at a time: every outcome that
 * arrived while the last batch was being written goes into the next one (lease form: one transaction, each
 * statement sent as one JDBC batch), and each row lock claim group is committed as a whole; an advisory
 * outcome (where the claim thread writes them, on SQLite) on its delivery's own connection. Once stopped,
 * an outcome that still arrives (a handler that outlived the drain) is written on the caller's thread.
 */
final class Settler {
    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);
    /** The most outcomes one lease batch writes. */
    static final int MAX_BATCH = 256;

    private final Settlement settlement;
    private final Slots slots;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final ReentrantLock accepting = new ReentrantLock();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean open = true;

    /**
     * @param writers the threads that write at once: each takes what is queued when it is free, so one
     *     writes while another waits for its commit; none where the subscription's claim thread writes what
     *     is queued itself ({@link #writeQueued()})
     */
    Settler(Settlement settlement, Slots slots, String name, int writers) {
        this.settlement = settlement;
        this.slots = slots;
        var factory = Threads.platform(name);
        for (int i = 0; i < writers; i++) {
            threads.add(factory.newThread(this::run));
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Queues one lease outcome. */
    void submit(Settlement.Pending outcome) {
        offer(outcome);
    }

    /**
     * Queues an advisory outcome's write, which writes on its delivery's own connection and counts itself
     * settled.
     */
    void submit(Runnable ownWrite) {
        offer(ownWrite);
    }

    /** Queues a row lock claim group whose every outcome is in. */
    void submit(ClaimGroup group, List<Settlement.Pending> outcomes) {
        offer(new GroupDone(group, outcomes));
    }

    private record GroupDone(ClaimGroup group, List<Settlement.Pending> outcomes) {}

    private void offer(Object item) {
        accepting.lock();
        try {
            if (open) {
                queue.add(item);
                return;
            }
        } finally {
            accepting.unlock();
        }
        write(List.of(item));
    }

    /**
     * Writes every outcome queued now, on the caller's thread: where the settler has no threads of its own,
     * the claim thread calls it before each claim.
     */
    void writeQueued() {
        List<Object> batch = new ArrayList<>();
        while (queue.drainTo(batch, MAX_BATCH) > 0) {
            write(batch);
            batch.clear();
        }
    }

    /**
     * Waits up to {@code nanos} for an outcome to arrive, then writes it and those queued with it, on the
     * caller's thread: where the settler has no threads, the claim thread calls it while it waits for a
     * connection that only such an outcome may give back.
     */
    void writeArriving(long nanos) throws InterruptedException {
        Object first = queue.poll(nanos, TimeUnit.NANOSECONDS);
        if (first != null) {
            writeWith(first);
        }
    }

    /**
     * Stops accepting: an outcome that comes later is written on its caller's thread. What is queued is still
     * written (here, where the settler has no threads).
     */
    void stopAccepting() {
        accepting.lock();
        try {
            open = false;
        } finally {
            accepting.unlock();
        }
        if (threads.isEmpty()) {
            writeQueued();
        }
    }

    /** Stops accepting ({@link #stopAccepting()}) and waits for the threads up to {@code deadline}. */
    void stop(long deadline) throws InterruptedException {
        stopAccepting();
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(java.time.Duration.ofNanos(left));
            }
        }
    }

    private void run() {
        while (true) {
            Object first;
            try {
                first = queue.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // keep going: what is queued must still be written
                continue;
            }
            if (first == null) {
                if (!open && queue.isEmpty()) {
                    return;
                }
                continue;
            }
            writeWith(first);
        }
    }

    /** Writes {@code first} and what is queued behind it, up to a batch. */
    private void writeWith(Object first) {
        List<Object> batch = new ArrayList<>();
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        write(batch);
    }

    private void write(List<Object> items) {
        List<Settlement.Pending> leased = new ArrayList<>();
        int written = 0;
        for (Object item : items) {
            try {
                if (item instanceof Runnable ownWrite) {
                    ownWrite.run();
                } else if (item instanceof GroupDone g) {
                    // the group's other rows left the unsettled count when their handlers returned
                    written++;
                    settlement.settleClaim(g.group(), g.outcomes());
                } else {
                    leased.add((Settlement.Pending) item);
                }
            } catch (RuntimeException e) {
                LOG.error("a settlement failed unexpectedly", e);
            }
        }
        if (!leased.isEmpty()) {
            written += leased.size();
            try {
                settlement.settleLeased(leased);
            } catch (RuntimeException e) {
                LOG.error("a settlement failed unexpectedly", e);
            }
        }
        slots.settled(written);
    }
}
