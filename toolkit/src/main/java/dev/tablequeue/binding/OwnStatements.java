package dev.tablequeue.binding;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The service's own statements a binding runs in place of the dialect's, one typed field per {@link Event}:
 * null where the dialect's statement runs. See {@link Own} for what each is handed and answers.
 *
 * @param claim the claim, returning the ids it took
 * @param fetch the fetch of claimed ids
 * @param ack the acknowledgement of one row
 * @param retry the retry of one row, at once
 * @param drop the drop of one row
 * @param retryAfter the delayed retry
 * @param deadLetter the move to the dead letter
 * @param extend the lease extension (lease form)
 * @param lock the advisory lock (advisory form)
 * @param unlock the advisory release (advisory form)
 */
public record OwnStatements(
        Own.Claim claim,
        Own.Fetch fetch,
        Own.Settle ack,
        Own.Settle retry,
        Own.Settle drop,
        Own.RetryAfter retryAfter,
        Own.DeadLetter deadLetter,
        Own.Extend extend,
        Own.Lock lock,
        Own.Lock unlock) {

    /** None: every statement is the dialect's. */
    public static final OwnStatements NONE = new OwnStatements(null, null, null, null, null, null, null, null, null,
            null);

    /** The statements a builder recorded, by event (each function of the shape its event takes). */
    static OwnStatements of(Map<Event, Object> byEvent) {
        return new OwnStatements(
                (Own.Claim) byEvent.get(Event.CLAIM),
                (Own.Fetch) byEvent.get(Event.FETCH),
                (Own.Settle) byEvent.get(Event.ACK),
                (Own.Settle) byEvent.get(Event.RETRY),
                (Own.Settle) byEvent.get(Event.DROP),
                (Own.RetryAfter) byEvent.get(Event.RETRY_AFTER),
                (Own.DeadLetter) byEvent.get(Event.DEAD_LETTER),
                (Own.Extend) byEvent.get(Event.EXTEND),
                (Own.Lock) byEvent.get(Event.LOCK),
                (Own.Lock) byEvent.get(Event.UNLOCK));
    }

    /** The service's own settlement of one row for {@code event} (ACK, RETRY or DROP); null where it has none. */
    public Own.Settle settle(Event event) {
        return switch (event) {
            case ACK -> ack;
            case RETRY -> retry;
            case DROP -> drop;
            default -> throw new IllegalArgumentException("not a settlement of one row: " + event);
        };
    }

    /** The events the service runs with its own statement. */
    public Set<Event> events() {
        Set<Event> events = EnumSet.noneOf(Event.class);
        Object[] fields = {claim, fetch, ack, retry, drop, retryAfter, deadLetter, extend, lock, unlock};
        Event[] order = {Event.CLAIM, Event.FETCH, Event.ACK, Event.RETRY, Event.DROP, Event.RETRY_AFTER,
                Event.DEAD_LETTER, Event.EXTEND, Event.LOCK, Event.UNLOCK};
        for (int i = 0; i < fields.length; i++) {
            if (fields[i] != null) {
                events.add(order[i]);
            }
        }
        return events;
    }
}
