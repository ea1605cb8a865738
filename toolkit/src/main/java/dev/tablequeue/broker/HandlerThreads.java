package dev.tablequeue.broker;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a subscription's handlers run: a virtual thread each, or the subscription's platform threads
 * ({@link Mount#onThreads}); in in-process mode, the thread that claims; with one worker, the claim thread
 * itself, once its claim has ended ({@link #onClaimThread(Mount)}).
 */
final class HandlerThreads implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(HandlerThreads.class);

    private final InboxQueue<?> queue;
    /** The executor each handler is given to. */
    private final Executor handlers;
    /** The handlers the claim thread runs once its claim has ended; the claim thread's alone. */
    private final ArrayDeque<Runnable> deferred = new ArrayDeque<>();
    /** The thread that claims; a handler started on it waits in {@link #deferred}. */
    private volatile Thread claimThread;
    /** Whether the claim thread is running a handler. */
    private volatile boolean claimThreadInHandler;
    /** The threads behind {@link #handlers}, shut down at the drain; null in in-process mode. */
    private final ExecutorService threads;

    HandlerThreads(QueueBroker broker, Mount<?> mount, InboxQueue<?> queue) {
        this.queue = queue;
        String name = "tablequeue-handler-" + queue.name();
        int platform = FormRuntime.handlerThreads(broker.dialect, mount);
        this.threads = broker.inProcess ? null
                : platform > 0 ? Executors.newFixedThreadPool(platform, Threads.platform(name))
                : Executors.newThreadPerTaskExecutor(Threads.virtual(name));
        this.handlers = threads == null ? Runnable::run : onClaimThread(mount) ? this::deferOnClaimThread : threads;
    }

    /** Runs a handler where the subscription's handlers run. */
    @Override
    public void execute(Runnable handler) {
        handlers.execute(handler);
    }

    /**
     * Whether the claim thread runs the handlers itself, once each claim has ended: where the subscription has
     * one worker (on no platform threads of its own, not transactional), the claim thread has nothing to do
     * while that worker's handler runs, and the hand-off to a virtual thread and back cost more than it gave
     * (measured: a third more deliveries a second on PostgreSQL, more than twice as many on SQLite).
     */
    static boolean onClaimThread(Mount<?> mount) {
        return mount.workers == 1 && mount.threads == 0 && !mount.transactional;
    }

    /** Runs {@code task} on the claim thread once its claim has ended; from another thread, on a thread of its own. */
    private void deferOnClaimThread(Runnable task) {
        if (Thread.currentThread() == claimThread) {
            deferred.add(task);
        } else {
            threads.execute(task);
        }
    }

    /** The claim loop's thread, whose claims defer their handlers to {@link #runDeferred()}. */
    void claimsOn(Thread thread) {
        this.claimThread = thread;
    }

    /**
     * Runs, on the claim thread, the handlers its claim started; an interrupt a handler leaves set is cleared,
     * so it never ends the claim loop. An {@link Error} of a handler is thrown on once each has run.
     */
    void runDeferred() {
        Error first = null;
        for (Runnable task; (task = deferred.poll()) != null; ) {
            claimThreadInHandler = true;
            try {
                task.run();
            } catch (Error e) {
                if (first == null) {
                    first = e;
                }
            } catch (RuntimeException e) {
                // as on a handler's own thread, where it would end that thread alone
                LOG.error("a delivery of {} failed outside its handler: {}", queue, e.toString(), e);
            } finally {
                claimThreadInHandler = false;
                Thread.interrupted();
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Whether the claim thread is running a handler, rather than a claim. */
    boolean claimThreadHandling() {
        return claimThreadInHandler;
    }

    /**
     * Lets the handler threads end once their handlers have returned (they are not interrupted: a handler
     * still running after the drain settles later, as on a virtual thread).
     */
    void shutdown() {
        if (threads != null) {
            threads.shutdown();
        }
    }
}
