package dev.tablequeue.bench;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * The threads of a raw baseline: each takes one connection of the pool for the whole run and repeats its
 * worker's step until the run's messages are handled; a timed run from the first thread's start to the last
 * one's end.
 */
final class RawWorkers {
    private RawWorkers() {}

    /** One worker on its connection. */
    interface Worker {
        /** One claim and its acknowledgements: how many rows it handled (0 where it found none). */
        int once() throws Exception;

        /** Gives back what the worker holds on its connection. */
        void close() throws Exception;
    }

    /** Makes a worker on a connection of its own. */
    interface Start {
        Worker on(Connection c) throws Exception;
    }

    /** Runs {@code workers} workers until {@code messages} rows are handled; fails with the first worker's failure. */
    static Measurement run(DataSource pool, int workers, long messages, boolean virtual, String name, Start start)
            throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        Stopwatch watch = Stopwatch.start();
        for (int i = 0; i < workers; i++) {
            Thread.Builder builder = virtual ? Thread.ofVirtual() : Thread.ofPlatform();
            threads.add(builder.name(name + "-" + i).start(() -> {
                try (Connection c = pool.getConnection()) {
                    Worker w = start.on(c);
                    try {
                        while (done.get() < messages && failure.get() == null) {
                            int n = w.once();
                            if (n > 0) {
                                done.addAndGet(n);
                            } else {
                                // rows are in other workers' hands; the last ones settle soon
                                LockSupport.parkNanos(100_000);
                            }
                        }
                    } finally {
                        w.close();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        Measurement m = watch.stop(messages);
        if (failure.get() != null) {
            throw new IllegalStateException("a worker of " + name + " failed: " + failure.get(), failure.get());
        }
        return m;
    }
}
