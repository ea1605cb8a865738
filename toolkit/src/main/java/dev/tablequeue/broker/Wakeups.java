package dev.tablequeue.broker;

import dev.tablequeue.binding.RoleBinding;
import java.util.List;

/**
 * Wakes a broker's started subscriptions before their poll interval ends: those of a table a publish wrote
 * into, of a channel a notification named, or all of them.
 */
final class Wakeups {
    private final List<Subscription<?>> started;

    /** @param started the broker's started subscriptions, a list that grows as they start */
    Wakeups(List<Subscription<?>> started) {
        this.started = started;
    }

    /**
     * Wakes the subscriptions of {@code binding}'s table that read {@code group} (every one where null); in
     * in-process mode, runs what is due in them on this thread.
     */
    void wake(RoleBinding<?> binding, String group) {
        for (Subscription<?> s : started) {
            if (s.reads(binding.tableName(), group)) {
                if (s.broker.inProcess) {
                    s.runInline();
                } else {
                    s.wakeup.wake();
                }
            }
        }
    }

    /**
     * Wakes the subscriptions of {@code binding}'s table that read {@code group} (every one where null) for a
     * row whose transaction has not committed yet, and goes on waking them at growing intervals.
     */
    void wakeUntilCommitted(RoleBinding<?> binding, String group) {
        for (Subscription<?> s : started) {
            if (s.reads(binding.tableName(), group)) {
                s.wakeUntilCommitted();
            }
        }
    }

    /** Wakes the subscriptions of the table behind {@code channel} reading {@code group} (all where empty). */
    void wakeChannel(String channel, String group) {
        for (Subscription<?> s : started) {
            if (s.channel().equals(channel) && (group == null || group.isEmpty() || s.readsGroup(group))) {
                s.wakeup.wake();
            }
        }
    }

    /** Wakes every subscription. */
    void wakeAll() {
        for (Subscription<?> s : started) {
            s.wakeup.wake();
        }
    }
}
