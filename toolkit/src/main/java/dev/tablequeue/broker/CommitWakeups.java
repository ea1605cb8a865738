package dev.tablequeue.broker;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.jooq.TransactionContext;
import org.jooq.TransactionListener;
import org.jooq.TransactionListenerProvider;

/**
 * Wakes the subscriptions of a row published inside a jOOQ transaction when that transaction commits: add
 * it to the jOOQ configuration the service publishes with.
 *
 * <pre>{@code
 * DSLContext ctx = DSL.using(new DefaultConfiguration().set(dataSource).set(SQLDialect.POSTGRES)
 *     .setAppending(new CommitWakeups()));
 * ctx.transaction(tx -> publisher.publish(tx.dsl(), SEND_EMAIL, message));   // wakes the claim at the commit
 * }</pre>
 *
 * <p>A subscription woken at the publish would claim before the row is visible, find nothing and wait its
 * poll interval. With this listener the wake-up waits for the outermost transaction's commit (a nested
 * transaction's wake-ups pass to the one around it) and is dropped by a rollback. Without it, a publish on a
 * connection in a transaction wakes its subscriptions at growing intervals until their poll, so the row is
 * found soon after a commit the broker cannot see.
 */
public final class CommitWakeups implements TransactionListenerProvider {

    /** The wake-ups of the jOOQ transactions open on this thread, innermost first. */
    private static final ThreadLocal<Deque<Frame>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);

    /** A listener provider; jOOQ asks it for one listener per transaction. */
    public CommitWakeups() {}

    @Override
    public TransactionListener provide() {
        return new Listener();
    }

    /**
     * Runs {@code wake} after the commit of the jOOQ transaction open on this thread; false (and nothing
     * runs) where no transaction with this listener is open here.
     */
    static boolean defer(Runnable wake) {
        Frame innermost = OPEN.get().peek();
        if (innermost == null) {
            return false;
        }
        innermost.wakes.add(wake);
        return true;
    }

    /** The wake-ups one transaction collected; compared by identity. */
    private static final class Frame {
        final List<Runnable> wakes = new ArrayList<>();
    }

    private static final class Listener implements TransactionListener {
        private final Frame frame = new Frame();

        @Override
        public void beginStart(TransactionContext ctx) {
            OPEN.get().push(frame);
        }

        /**
         * jOOQ calls this after the commit whether or not it succeeded (a failed one is followed by
         * {@link #rollbackEnd}): a wake-up after a failed commit finds nothing, which costs one claim.
         */
        @Override
        public void commitEnd(TransactionContext ctx) {
            if (!end()) {
                return;
            }
            Frame outer = OPEN.get().peek();
            if (outer != null) {
                // a nested transaction's rows are visible when the one around it commits
                outer.wakes.addAll(frame.wakes);
            } else {
                frame.wakes.forEach(Runnable::run);
            }
            frame.wakes.clear();
        }

        @Override
        public void rollbackEnd(TransactionContext ctx) {
            if (end()) {
                frame.wakes.clear();
            }
        }

        /** Takes this transaction's frame off the thread's open ones; false where it already was. */
        private boolean end() {
            Deque<Frame> open = OPEN.get();
            boolean removed = open.removeFirstOccurrence(frame);
            if (open.isEmpty()) {
                OPEN.remove();
            }
            return removed;
        }
    }
}
