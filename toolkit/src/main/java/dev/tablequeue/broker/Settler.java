package dev.tablequeue.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queue of a completer's writes, written by platform threads of its own (or, with none, by the claim
 * thread), many at a time: every outcome that arrived while the last batch was being written goes into the
 * next one, written by the batch writer in one go (lease form: one transaction, see {@link LeaseCompleter});
 * a task (an advisory outcome to write on its connection) runs on its own. Once stopped, what still arrives (a
 * handler that outlived the drain) is written on the caller's thread. (A row lock claim settles on a thread of
 * its own: {@link ClaimCompleter}.)
 */
final class Settler {
    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);
    /** The most arrivals (an outcome, or a batch handler's outcomes together) one lease batch writes. */
    static final int MAX_BATCH = 256;

    /** A write queued as a whole, and how many outcomes it settles for the slots once it has run. */
    record Task(Runnable write, int settles) {}

    private final Consumer<List<Settlement.Pending>> batch;
    private final Slots slots;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final ReentrantLock accepting = new ReentrantLock();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean open = true;

    /**
     * @param batch writes the outcomes queued one by one, many at a time (null where only tasks are queued)
     * @param writers the threads that write at once: each takes what is queued when it is free, so one
     *     writes while another waits for its commit; none where the subscription's claim thread writes what
     *     is queued itself ({@link #writeQueued()})
     */
    Settler(Consumer<List<Settlement.Pending>> batch, Slots slots, String name, int writers) {
        this.batch = batch;
        this.slots = slots;
        var factory = Threads.platform(name);
        for (int i = 0; i < writers; i++) {
            threads.add(factory.newThread(this::run));
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Queues one outcome, written with those queued beside it by the batch writer. */
    void submit(Settlement.Pending outcome) {
        offer(outcome);
    }

    /**
     * Queues outcomes that arrived together (a batch handler's), as one item: the batch writer takes them all
     * in one go, with whatever else is queued.
     */
    void submitAll(List<Settlement.Pending> outcomes) {
        offer(new Together(List.copyOf(outcomes)));
    }

    /** Outcomes queued as one. */
    private record Together(List<Settlement.Pending> outcomes) {}

    /** Queues a write that runs on its own. */
    void submit(Task task) {
        offer(task);
    }

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
    void stop(long deadline) {
        stopAccepting();
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    t.join(java.time.Duration.ofNanos(left));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        List<Settlement.Pending> outcomes = new ArrayList<>();
        int written = 0;
        for (Object item : items) {
            try {
                if (item instanceof Task task) {
                    written += task.settles();
                    task.write().run();
                } else if (item instanceof Together together) {
                    outcomes.addAll(together.outcomes());
                } else {
                    outcomes.add((Settlement.Pending) item);
                }
            } catch (RuntimeException e) {
                LOG.error("a settlement failed unexpectedly", e);
            }
        }
        if (!outcomes.isEmpty()) {
            written += outcomes.size();
            try {
                batch.accept(outcomes);
            } catch (RuntimeException e) {
                LOG.error("a settlement failed unexpectedly", e);
            }
        }
        slots.settled(written);
    }
}
