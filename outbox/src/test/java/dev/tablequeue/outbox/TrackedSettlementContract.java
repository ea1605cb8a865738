package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.ForwardingDataSource;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.SettlementJoin;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Field;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tracked delivery of the table broker writes its record's mark in the transaction that commits the row's
 * outcome (docs/outbox.md, "Tracked delivery"): in the row lock form at the claim, undone before the commit for
 * a retry; in the lease form with the settlement, its record read at the claim. Each case runs in both forms,
 * with and without {@code transactional()}; SQLite serves the lease form alone.
 */
public abstract class TrackedSettlementContract extends OutboxFixture {

    /** How the inbox is consumed. */
    enum Mode {
        ROW_LOCK(true, false),
        ROW_LOCK_TRANSACTIONAL(true, true),
        LEASE(false, false),
        LEASE_TRANSACTIONAL(false, true);

        final boolean rowLock;
        final boolean transactional;

        Mode(boolean rowLock, boolean transactional) {
            this.rowLock = rowLock;
            this.transactional = transactional;
        }
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return TableTestTransport.KIND;
    }

    /** A fresh inbox table of the table broker. */
    private InboxTable newInbox() {
        String name = "tracked_inbox_" + TABLES.incrementAndGet();
        try (Connection c = pool.getConnection(); var s = c.createStatement()) {
            s.execute(database().inbox(name));
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return new InboxTable(name, database().timeType());
    }

    /** {@code inbox}'s binding in {@code mode}'s form; with {@code ownAck}, the acknowledgement is the service's own. */
    private static RoleBinding<Record> binding(InboxTable inbox, Mode mode, dev.tablequeue.binding.Own.Settle ownAck) {
        RoleBinding.Builder<Record> b = RoleBinding.of(inbox, inbox.ID).group(inbox.GRP).retryAfter(inbox.RETRY_AFTER)
                .attempt(inbox.ATTEMPT).processedAt(inbox.PROCESSED_AT).headers(inbox.HEADERS).payload(inbox.PAYLOAD);
        if (!mode.rowLock) {
            b.lease(inbox.LOCKED_UNTIL);
        }
        if (ownAck != null) {
            b.own(Event.ACK, ownAck);
        }
        return b.build();
    }

    /** A started table broker on {@code binding} with the outbox's middlewares, consuming "orders" with {@code handler}. */
    private QueueBroker broker(Outbox outbox, RoleBinding<Record> binding, Mode mode, int workers,
            Handler<Order> handler) {
        assumeTrue(mode.rowLock ? database() != OutboxDatabase.SQLITE : true, "SQLite has no row lock form");
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50))
                .drainTimeout(Duration.ofSeconds(10)).lease(Duration.ofSeconds(1)).route("*", binding)
                .publishMiddleware(outbox.publishMiddleware()).handlerMiddleware(outbox.handlerMiddleware()).build();
        opened.add(broker::close);
        Mount<Order> mount = broker.subscribe(InboxQueue.of(binding, "orders")).payload(Order.class).workers(workers);
        if (mode.transactional) {
            mount.transactional();
        }
        mount.handle(handler);
        broker.start();
        return broker;
    }

    private long unprocessedRows(InboxTable inbox) {
        return dsl().fetchCount(inbox, inbox.PROCESSED_AT.isNull());
    }

    /**
     * The acknowledgement's settlement fails (the inbox's own acknowledgement throws) and rolls back: the
     * record's mark rolls back with it, so the record stays unprocessed and the row's next delivery runs the
     * handler again. Written outside the settlement's transaction, the mark would have committed on its own.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_mark_rolls_back_with_an_acknowledgement_whose_settlement_fails(Mode mode) {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        InboxTable inbox = newInbox();
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicInteger acks = new AtomicInteger();
        RoleBinding<Record> binding = binding(inbox, mode, (ctx, id) -> {
            acks.incrementAndGet();
            if (failing.get()) {
                throw new IllegalStateException("the acknowledgement fails");
            }
            ctx.update(inbox).set(Map.<Field<?>, Object>of(inbox.PROCESSED_AT,
                    dialect.timeValue(inbox.PROCESSED_AT, Instant.now()))).where(inbox.ID.eq((Long) id)).execute();
        });
        AtomicInteger handled = new AtomicInteger();
        QueueBroker broker = broker(outbox, binding, mode, 1, (order, d) -> {
            handled.incrementAndGet();
            return Outcome.ack();
        });

        broker.publisher().publish(Message.of("orders", new Order(1)));

        // the handler ran again after a failed acknowledgement: the record was not marked by the first
        await().atMost(PATIENCE).until(() -> handled.get() >= 2 && acks.get() >= 2);
        assertThat(unprocessed(t)).isEqualTo(1);
        assertThat(unprocessedRows(inbox)).isEqualTo(1);

        failing.set(false);
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0 && unprocessedRows(inbox) == 0);
    }

    /**
     * A retried delivery leaves its record unprocessed (a mark written at the claim is undone in the retry's
     * settlement), and the next attempt, whose handler acknowledges, marks it.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_retry_leaves_the_record_unprocessed_and_the_acknowledgement_after_it_marks_it(Mode mode) {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        InboxTable inbox = newInbox();
        List<Long> unprocessedSeen = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(outbox, binding(inbox, mode, null), mode, 1, (order, d) -> {
            unprocessedSeen.add(unprocessed(t));
            return unprocessedSeen.size() == 1 ? Outcome.retry() : Outcome.ack();
        });

        broker.publisher().publish(Message.of("orders", new Order(2)));

        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0 && unprocessedRows(inbox) == 0);
        assertThat(unprocessedSeen).containsExactly(1L, 1L);
    }

    /**
     * Copies of one record (as a republish sends them) taken by one claim, or by claims side by side, run one
     * handler: the others find the record processed and are acknowledged without it.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void copies_of_one_record_run_its_handler_once(Mode mode) {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        InboxTable inbox = newInbox();
        long id = insertRecord(t, "orders", 3, "{}");
        for (int i = 0; i < 3; i++) {
            dsl().insertInto(inbox).set(inbox.GRP, "orders")
                    .set(inbox.HEADERS, "{\"" + Outbox.ID_HEADER + "\":\"" + id + "\"}")
                    .set(inbox.PAYLOAD, "{\"n\":3}".getBytes(StandardCharsets.UTF_8)).execute();
        }
        AtomicInteger handled = new AtomicInteger();
        broker(outbox, binding(inbox, mode, null), mode, 4, (order, d) -> {
            handled.incrementAndGet();
            return Outcome.ack();
        });

        await().atMost(PATIENCE).until(() -> unprocessedRows(inbox) == 0);
        assertThat(handled.get()).isEqualTo(1);
        assertThat(unprocessed(t)).isZero();
    }

    /**
     * A lease claim reads its rows' records on its own connection, one statement for the claim, so their
     * handlers run without taking a connection of the outbox's each for the read (and the settlement marks them
     * in its transaction): the outbox's pool lends none while the inbox drains.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void a_lease_claim_reads_its_records_so_their_handlers_take_no_connection_to_read_them(Mode mode) {
        assumeFalse(mode.rowLock, "the row lock form marks its records at the claim");
        RecordTable t = newRecords();
        AtomicInteger lent = new AtomicInteger();
        Outbox outbox = Outbox.builder(new ForwardingDataSource(pool) {
            @Override
            protected Connection lend(Connection connection) {
                lent.incrementAndGet();
                return connection;
            }
        }).clock(clock).enabled(true).register("orders", t.binding()).build();
        opened.add(outbox);
        InboxTable inbox = newInbox();
        for (int n = 0; n < 20; n++) {
            long id = insertRecord(t, "orders", n, "{}");
            dsl().insertInto(inbox).set(inbox.GRP, "orders")
                    .set(inbox.HEADERS, "{\"" + Outbox.ID_HEADER + "\":\"" + id + "\"}")
                    .set(inbox.PAYLOAD, ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8)).execute();
        }
        int lentBefore = lent.get();
        AtomicInteger handled = new AtomicInteger();
        broker(outbox, binding(inbox, mode, null), mode, 4, (order, d) -> {
            handled.incrementAndGet();
            return Outcome.ack();
        });

        await().atMost(PATIENCE).until(() -> unprocessedRows(inbox) == 0 && unprocessed(t) == 0);
        assertThat(handled.get()).isEqualTo(20);
        assertThat(lent.get() - lentBefore).isZero();
    }

    /**
     * A copy whose record its lease claim read unprocessed while another copy of it was in work is read again
     * before its handler once that copy has left work (its settlement marked the record): it is acknowledged
     * without the handler, which ran once. Taken as the claim read it, it would have run the handler twice.
     */
    @Test
    void a_copy_read_at_its_claim_is_read_again_once_another_copy_of_its_record_left_work() throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        DeliveryTracking tracking = (DeliveryTracking) outbox.handlerMiddleware();
        long id = insertRecord(t, "orders", 4, "{}");
        Delivery first = copy(id, 1);
        Delivery second = copy(id, 2);
        try (Connection c = pool.getConnection()) {
            tracking.leased(c, List.of(first, second));
        }
        AtomicInteger handled = new AtomicInteger();
        HandlerMiddleware.Next handler = () -> {
            handled.incrementAndGet();
            return Outcome.ack();
        };

        assertThat(tracking.handle("orders", first, handler)).isEqualTo(Outcome.ack());
        // the first copy's settlement marks the record and commits, and the copy leaves work
        try (Connection c = pool.getConnection()) {
            tracking.settling(c, List.of(new SettlementJoin.Settled(first, Outcome.ack())));
        }
        tracking.ended(List.of(first));
        assertThat(unprocessed(t)).isZero();

        assertThat(tracking.handle("orders", second, handler)).isEqualTo(Outcome.ack());
        assertThat(handled).hasValue(1);
    }

    /** A delivery of the table broker's "orders" queue, in the lease form, carrying record {@code record}. */
    private static Delivery copy(long record, long row) {
        return new Delivery() {
            @Override
            public Object id() {
                return row;
            }

            @Override
            public String queue() {
                return "orders";
            }

            @Override
            public java.util.OptionalInt attempt() {
                return java.util.OptionalInt.of(1);
            }

            @Override
            public Map<String, String> headers() {
                return Map.of(Outbox.ID_HEADER, Long.toString(record));
            }

            @Override
            public Object partitionKey() {
                return null;
            }

            @Override
            public org.jooq.DSLContext db() {
                throw new UnsupportedOperationException();
            }

            @Override
            public boolean joinsSettlement() {
                return true;
            }

            @Override
            public String toString() {
                return "copy " + row + " of record " + record;
            }
        };
    }
}
