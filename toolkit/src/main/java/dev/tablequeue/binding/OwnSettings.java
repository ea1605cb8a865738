package dev.tablequeue.binding;

import org.jooq.Record;
import org.jooq.Table;
import org.jooq.Field;

/**
 * The settings of a binding that name the service's own statements, which run in place of the dialect's for
 * one event each ({@link Own}); {@link RoleBinding.Builder} takes them with the rest.
 */
abstract class OwnSettings<R extends Record> extends BindingDraft<R> {

    OwnSettings(Table<R> table, Field<?> id) {
        super(table, id);
    }

    /** The service's own claim, returning the ids it took (not in the advisory form). */
    public RoleBinding.Builder<R> ownClaim(Own.Claim claim) {
        return own(Event.CLAIM, claim);
    }

    /** The service's own fetch of claimed ids, e.g. over a join. */
    public RoleBinding.Builder<R> ownFetch(Own.Fetch fetch) {
        return own(Event.FETCH, fetch);
    }

    /** The service's own acknowledgement, retry or drop. */
    public RoleBinding.Builder<R> own(Event event, Own.Settle settle) {
        if (event != Event.ACK && event != Event.RETRY && event != Event.DROP) {
            problems.add("own(" + event + ", ..) takes a settlement of one row (ACK, RETRY or DROP): "
                    + event + " is declared with " + ownSetting(event));
        }
        return own(event, (Object) settle);
    }

    /** The service's own delayed retry. */
    public RoleBinding.Builder<R> ownRetryAfter(Own.RetryAfter retryAfter) {
        return own(Event.RETRY_AFTER, retryAfter);
    }

    /** The service's own dead-letter move. */
    public RoleBinding.Builder<R> ownDeadLetter(Own.DeadLetter deadLetter) {
        return own(Event.DEAD_LETTER, deadLetter);
    }

    /** The service's own lease extension (lease form only). */
    public RoleBinding.Builder<R> ownExtend(Own.Extend extend) {
        return own(Event.EXTEND, extend);
    }

    /** The service's own advisory lock; comes with {@link #ownUnlock} (advisory form only). */
    public RoleBinding.Builder<R> ownLock(Own.Lock lock) {
        return own(Event.LOCK, lock);
    }

    /** The service's own advisory release; comes with {@link #ownLock} (advisory form only). */
    public RoleBinding.Builder<R> ownUnlock(Own.Lock unlock) {
        return own(Event.UNLOCK, unlock);
    }
}
