package dev.tablequeue.outbox;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.jooq.TransactionContext;
import org.jooq.TransactionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sends a transaction holds back until it commits. A frame is opened when a transaction begins (by the
 * outbox's jOOQ {@link TransactionListener}, or by {@link Outbox#afterCommit()} around a transaction the
 * service runs itself) and closed when it ends: a commit of the outermost frame runs its sends, a commit of a
 * nested one hands them to the enclosing frame, and a rollback drops them.
 *
 * <p>Frames belong to the thread that runs the transaction, as a jOOQ transaction does.
 */
public final class AfterCommit implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AfterCommit.class);
    private static final ThreadLocal<Deque<AfterCommit>> FRAMES = ThreadLocal.withInitial(ArrayDeque::new);

    /** A send held back; its failure is logged, and the republish sends the record again. */
    @FunctionalInterface
    interface Send {
        void run() throws Exception;
    }

    private final List<Send> sends = new ArrayList<>();
    private boolean ended;

    private AfterCommit() {}

    /** Opens a frame on this thread. */
    static AfterCommit open() {
        AfterCommit frame = new AfterCommit();
        FRAMES.get().push(frame);
        return frame;
    }

    /** The innermost frame open on this thread, or null. */
    static AfterCommit current() {
        Deque<AfterCommit> frames = FRAMES.get();
        return frames.isEmpty() ? null : frames.peek();
    }

    void hold(Send send) {
        sends.add(send);
    }

    /** The service's transaction committed: runs the sends held back (or hands them to the enclosing frame). */
    public void committed() {
        if (end()) {
            AfterCommit outer = current();
            if (outer != null) {
                outer.sends.addAll(sends);
            } else {
                for (Send send : sends) {
                    try {
                        send.run();
                    } catch (Exception e) {
                        LOG.warn("a send after commit failed; the republish sends its record again: {}", e.toString());
                    }
                }
            }
        }
    }

    /** Closes the frame; where {@link #committed()} was not called, the transaction rolled back: nothing is sent. */
    @Override
    public void close() {
        end();
    }

    private boolean end() {
        if (ended) {
            return false;
        }
        ended = true;
        Deque<AfterCommit> frames = FRAMES.get();
        frames.remove(this);
        if (frames.isEmpty()) {
            FRAMES.remove();
        }
        return true;
    }

    /** Opens a frame as each jOOQ transaction begins and closes it as it commits or rolls back. */
    static final class Listener implements TransactionListener {
        @Override
        public void beginEnd(TransactionContext ctx) {
            open();
        }

        @Override
        public void commitEnd(TransactionContext ctx) {
            AfterCommit frame = current();
            if (frame != null) {
                frame.committed();
            }
        }

        @Override
        public void rollbackEnd(TransactionContext ctx) {
            AfterCommit frame = current();
            if (frame != null) {
                frame.close();
            }
        }
    }
}
