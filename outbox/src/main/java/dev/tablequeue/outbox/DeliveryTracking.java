package dev.tablequeue.outbox;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.SettlementJoin;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's handler middleware. A delivery of a registered name whose {@link Outbox#ID_HEADER} holds a
 * valid id is tracked: a processed record is acknowledged without the handler (a duplicate), and otherwise the
 * handler's outcome settles the record (an acknowledgement, a drop or a dead letter marks it processed, a retry
 * leaves it for the republish). Where the record is written depends on where the delivery comes from:
 *
 * <ul>
 *   <li><b>A queue table's row lock form</b> (transactional or not): the record is marked in the claim's own
 *       transaction, for every row of the claim in one batch, before the handlers run; a mark that changes
 *       nothing finds the record processed. The settlement commits the mark with the row's outcome, and undoes
 *       it for a retry (or a row written nothing) before that commit; a crash, a release or a failed settlement
 *       rolls both back. No read, no round trip of its own per delivery, no commit of its own.
 *   <li><b>A queue table's lease form</b> (transactional or not): the records of a claim's rows are read on the
 *       claim's connection once it has committed, one read per claim; a record read unprocessed is read again,
 *       on a connection of its own, where another copy of it ended its settlement in this process since the
 *       claim's read. The settlement marks it in its transaction, with the row's outcome.
 *   <li><b>Elsewhere</b> (the advisory form, whose outcome is one statement in auto-commit; another transport;
 *       a binding with its own fetch or settlement statements): the record is read on a connection of its own
 *       before the handler, and marked on one after it; a mark that fails is logged and the handler's outcome
 *       kept. A record that cannot be read retries the delivery without its handler.
 * </ul>
 *
 * <p>A copy that arrives while another copy of its record is in a handler of this process waits a moment and
 * comes back, when the record is processed (at the claim, a second copy waits for the first copy's settlement
 * on the record's row lock). A delivery without a valid id, or whose record is done on the broker's
 * confirmation ({@link OutboxHeaders#DONE}), runs untracked.
 */
final class DeliveryTracking implements HandlerMiddleware, SettlementJoin {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryTracking.class);
    /** How long a copy whose record is in a handler of this process waits before it comes back. */
    static final Duration IN_WORK_WAIT = Duration.ofMillis(200);
    /** How many stripes {@link #leftWork} counts records in (a power of two). */
    private static final int STRIPES = 1024;

    private final Outbox outbox;
    private final DataSource dataSource;
    private final Set<InWork> inWork = ConcurrentHashMap.newKeySet();
    /**
     * Counts, per stripe of records, the copies that left work ({@link #inWork}): a record a lease claim read
     * unprocessed is read again before its handler where its stripe moved since, as another copy of it may
     * have been marked meanwhile. Two records share a stripe rarely, and then cost only a read.
     */
    private final AtomicLongArray leftWork = new AtomicLongArray(STRIPES);
    /** The deliveries whose record the settlement writes, until it does (weak: a released one just goes). */
    private final Map<Delivery, Tracked> joined = Collections.synchronizedMap(new WeakHashMap<>());

    private record InWork(String table, Object id) {}

    /** A tracked delivery's record. */
    private record Target(Registration r, Object id) {}

    /** Where a joined delivery's record stands. */
    private enum Mark {
        /** Marked at the claim, in the transaction its settlement commits. */
        AT_CLAIM,
        /** Found processed at the claim: a duplicate, acknowledged without its handler. */
        PROCESSED,
        /** Read before the handler; the settlement marks it. */
        AT_SETTLEMENT,
        /** Read unprocessed at the lease claim, while its stripe of {@link #leftWork} stood at {@code read}. */
        READ_AT_CLAIM
    }

    /**
     * A joined delivery's record; {@code key} its place in {@link #inWork}, held until its settlement ends (or
     * null); {@code read} the stripe's count before a read at the claim.
     */
    private record Tracked(Target target, Mark mark, InWork key, long read) {
        Tracked(Target target, Mark mark, InWork key) {
            this(target, mark, key, 0);
        }
    }

    DeliveryTracking(Outbox outbox, DataSource dataSource) {
        this.outbox = outbox;
        this.dataSource = dataSource;
    }

    @Override
    public Outcome handle(String name, Delivery delivery, Next next) throws Exception {
        Target t = target(name, delivery);
        if (t == null) {
            return next.call();
        }
        Tracked at = joined.get(delivery);
        if (at != null && at.mark() == Mark.PROCESSED) {
            return Outcome.ack();
        }
        if (at != null && at.mark() != Mark.READ_AT_CLAIM) {
            return next.call();
        }
        InWork key = new InWork(t.r().binding().tableName(), t.id());
        if (!inWork.add(key)) {
            return Outcome.retryAfter(IN_WORK_WAIT);
        }
        boolean keyToSettlement = false;
        try {
            boolean processed = false;
            // the claim's read holds while no copy of the record left work since: a copy in work then still
            // held the key, which this one has now
            if (at == null || leftWork.get(stripe(key)) != at.read()) {
                try (Connection c = dataSource.getConnection()) {
                    processed = processed(t.r(), c, t.id());
                } catch (SQLException | RuntimeException e) {
                    LOG.warn("the outbox record {} of \"{}\" ({}) cannot be read; the delivery is retried without its"
                            + " handler: {}", t.id(), t.r().binding().tableName(), name, e.toString());
                    return Outcome.retry();
                }
            }
            if (processed) {
                return Outcome.ack();
            }
            if (delivery.joinsSettlement() && settlesBuiltIn(t.r())) {
                // the record stays in work until the transaction that marks it has ended (ended(..)): a copy that
                // comes meanwhile would read it unmarked
                joined.put(delivery, new Tracked(t, Mark.AT_SETTLEMENT, key));
                Outcome outcome = next.call();
                keyToSettlement = true;
                return outcome;
            }
            Outcome outcome = next.call();
            settle(t.r(), t.id(), outcome);
            return outcome;
        } finally {
            if (!keyToSettlement) {
                leaveWork(key);
                joined.computeIfPresent(delivery, (d, tracked) -> new Tracked(tracked.target(), tracked.mark(), null));
            }
        }
    }

    /** {@code key}'s copy leaves work: its stripe moves first, so a copy that takes the key next sees it moved. */
    private void leaveWork(InWork key) {
        leftWork.incrementAndGet(stripe(key));
        inWork.remove(key);
    }

    private static int stripe(InWork key) {
        return key.hashCode() & (STRIPES - 1);
    }

    /** The record {@code delivery} tracks, or null where it runs untracked. */
    private Target target(String name, Delivery delivery) {
        Registration r = outbox.registration(name);
        String text = r == null ? null : delivery.headers().get(Outbox.ID_HEADER);
        Object id = text == null ? null : r.statements().parseId(text);
        if (id == null || OutboxHeaders.CONFIRMED.equals(delivery.headers().get(OutboxHeaders.DONE))) {
            // a record done on the broker's confirmation is processed once sent: it says nothing of this handler,
            // so such a message runs untracked and the consumer dedups it by its id
            return null;
        }
        return new Target(r, id);
    }

    /** Whether the record's settlement is the registry's own mark (no statement of the service's own). */
    private static boolean settlesBuiltIn(Registration r) {
        OutboxBinding<?> b = r.binding();
        return !b.owns(OutboxEvent.ACK) && !b.owns(OutboxEvent.DROP) && !b.owns(OutboxEvent.RETRY);
    }

    /**
     * Marks the records of a row lock claim's tracked deliveries in the claim's transaction, in id order per
     * record table (so that two claims take the records' locks in one order), and notes of each whether it was
     * processed already. A second copy of a record another claim's transaction marked waits for that one's end.
     */
    @Override
    public void claimed(Connection c, List<Delivery> deliveries) throws SQLException {
        Map<Registration, List<Map.Entry<Delivery, Target>>> byTable = new LinkedHashMap<>();
        for (Delivery d : deliveries) {
            // the table broker hands the middlewares its subscription's queue name, as the message's name
            Target t = target(d.queue(), d);
            if (t != null && settlesBuiltIn(t.r()) && !t.r().binding().owns(OutboxEvent.FETCH)
                    && t.r().statements().marks.undoable()) {
                byTable.computeIfAbsent(t.r(), x -> new ArrayList<>()).add(Map.entry(d, t));
            }
        }
        for (var e : byTable.entrySet()) {
            List<Map.Entry<Delivery, Target>> rows = e.getValue();
            rows.sort(Comparator.comparing(x -> comparable(x.getValue().id())));
            boolean[] changed = e.getKey().statements().marks.mark(c, rows.stream().map(x -> x.getValue().id()).toList());
            for (int i = 0; i < rows.size(); i++) {
                joined.put(rows.get(i).getKey(), new Tracked(rows.get(i).getValue(),
                        changed[i] ? Mark.AT_CLAIM : Mark.PROCESSED, null));
            }
        }
    }

    /**
     * Reads the records of a lease claim's tracked deliveries on the claim's connection, one statement per
     * record table, and notes of each whether it was processed: a processed one is acknowledged without its
     * handler, an unprocessed one runs it without a read of its own (unless another copy left work since).
     * A record of a binding with its own fetch or settlement is left to the read before its handler.
     */
    @Override
    public void leased(Connection c, List<Delivery> deliveries) throws SQLException {
        Map<Registration, List<Map.Entry<Delivery, Target>>> byTable = new LinkedHashMap<>();
        for (Delivery d : deliveries) {
            Target t = target(d.queue(), d);
            if (t != null && settlesBuiltIn(t.r()) && !t.r().binding().owns(OutboxEvent.FETCH)) {
                byTable.computeIfAbsent(t.r(), x -> new ArrayList<>()).add(Map.entry(d, t));
            }
        }
        for (var e : byTable.entrySet()) {
            List<Map.Entry<Delivery, Target>> rows = e.getValue();
            long[] before = new long[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                Target t = rows.get(i).getValue();
                before[i] = leftWork.get(stripe(new InWork(t.r().binding().tableName(), t.id())));
            }
            List<Object> ids = rows.stream().map(x -> x.getValue().id()).toList();
            Boolean[] processed = e.getKey().statements().processed(c, ids);
            for (int i = 0; i < rows.size(); i++) {
                Target t = rows.get(i).getValue();
                if (processed[i] != null) {
                    // a record the read did not find is read again before its handler, by the id as the header has it
                    joined.put(rows.get(i).getKey(), processed[i] ? new Tracked(t, Mark.PROCESSED, null)
                            : new Tracked(t, Mark.READ_AT_CLAIM, null, before[i]));
                }
            }
        }
    }

    /**
     * Writes the records of settled deliveries in the settlement's transaction: a mark made at the claim is
     * undone for a retry and for a row written nothing; a record read before the handler is marked for an
     * acknowledgement, a drop or a dead letter.
     */
    @Override
    public void settling(Connection c, List<Settled> settled) throws SQLException {
        Map<Registration, List<Object>> undo = new LinkedHashMap<>();
        Map<Registration, List<Object>> mark = new LinkedHashMap<>();
        for (Settled s : settled) {
            Tracked t = joined.get(s.delivery());
            if (t == null || t.mark() == Mark.PROCESSED) {
                continue;
            }
            boolean done = s.outcome() != null && !(s.outcome() instanceof Outcome.Retry)
                    && !(s.outcome() instanceof Outcome.RetryAfter);
            if (t.mark() == Mark.AT_CLAIM && !done) {
                undo.computeIfAbsent(t.target().r(), x -> new ArrayList<>()).add(t.target().id());
            } else if (t.mark() == Mark.AT_SETTLEMENT && done) {
                mark.computeIfAbsent(t.target().r(), x -> new ArrayList<>()).add(t.target().id());
            }
        }
        for (var e : undo.entrySet()) {
            e.getKey().statements().marks.unmark(c, e.getValue());
        }
        for (var e : mark.entrySet()) {
            List<Object> ids = new ArrayList<>(e.getValue());
            ids.sort(Comparator.comparing(DeliveryTracking::comparable));
            e.getKey().statements().marks.markSettled(c, ids);
        }
    }

    /** The settlement's transaction has ended: its records are what every connection reads, and leave work. */
    @Override
    public void ended(List<Delivery> deliveries) {
        for (Delivery d : deliveries) {
            Tracked t = joined.remove(d);
            if (t != null && t.key() != null) {
                leaveWork(t.key());
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparable<Object> comparable(Object id) {
        return (Comparable) id;
    }

    private boolean processed(Registration r, Connection c, Object id) throws SQLException {
        if (r.binding().owns(OutboxEvent.FETCH)) {
            return ((OwnRecords.Fetch) r.binding().own(OutboxEvent.FETCH))
                    .processed(DSL.using(c, r.statements().dialect().sqlDialect()), id);
        }
        return r.statements().processed(c, id);
    }

    private void settle(Registration r, Object id, Outcome outcome) {
        OutboxEvent event = switch (outcome) {
            case Outcome.Ack a -> OutboxEvent.ACK;
            case Outcome.Drop d -> OutboxEvent.DROP;
            // the message goes to a dead letter: its record is finished, and the republish must not send it again
            case Outcome.DeadLetter d -> OutboxEvent.DROP;
            case Outcome.Retry t -> OutboxEvent.RETRY;
            case Outcome.RetryAfter t -> OutboxEvent.RETRY;
        };
        if (event == OutboxEvent.RETRY && !r.binding().owns(OutboxEvent.RETRY)) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            if (r.binding().owns(event)) {
                ((OwnRecords.Settle) r.binding().own(event))
                        .settle(DSL.using(c, r.statements().dialect().sqlDialect()), id);
            } else {
                r.statements().ack(c, id);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the outbox record {} of \"{}\" was not marked after its {} ({}); the handler's outcome stands and"
                    + " the republish sends the record again: {}", id, r.binding().tableName(), event, r.name(),
                    e.toString());
        }
    }
}
