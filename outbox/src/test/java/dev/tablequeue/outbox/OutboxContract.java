package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.test.contract.ForwardingDataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The outbox's behaviour over one transport on one database: each per-database, per-transport class only
 * names its {@link OutboxDatabase} and its {@link TestTransport.Kind}.
 */
public abstract class OutboxContract extends OutboxFixture {

    @Test
    public final void a_publish_without_a_transaction_writes_the_record_first_and_sends_its_id_in_the_header() {
        Started started = started();
        RecordTable t = started.records();
        Outbox outbox = started.outbox();
        TestTransport transport = started.transport();
        List<Received> received = started.received();

        transport.publish(null, "orders", new Order(1));

        await().atMost(PATIENCE).until(() -> received.size() == 1);
        List<Long> ids = ids(t);
        assertThat(ids).hasSize(1);
        assertThat(received.get(0).headers()).containsEntry(Outbox.ID_HEADER, ids.get(0).toString());
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
    }

    @Test
    public final void a_record_stays_unprocessed_after_its_send_until_the_tracking_consumer_acknowledges_it()
            throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch inHandler = new java.util.concurrent.CountDownLatch(1);
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            inHandler.countDown();
            release.await(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            return dev.tablequeue.broker.Outcome.ack();
        });
        transport.start();

        transport.publish(null, "orders", new Order(1));
        assertThat(inHandler.await(PATIENCE.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(unprocessed(t)).as("sent, in the consumer's handler, not yet acknowledged").isEqualTo(1);
        release.countDown();
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
    }

    @Test
    public final void a_publish_in_the_callers_transaction_commits_with_its_data_and_is_sent_after_the_commit() {
        RecordTable t = newRecords();
        String orders = newBusinessTable();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);
        List<Integer> sentBeforeCommit = new ArrayList<>();

        dsl(outbox).transaction(cfg -> {
            DSLContext tx = DSL.using(cfg);
            tx.insertInto(DSL.table(DSL.name(orders))).set(DSL.field(DSL.name("id")), 7)
                    .set(DSL.field(DSL.name("customer")), "ada").execute();
            transport.publish(tx, "orders", new Order(7));
            sentBeforeCommit.add(faults.sent.size());
            // nobody else sees the record before the commit
            assertThat(records(t)).isZero();
        });

        await().atMost(PATIENCE).until(() -> received.size() == 1);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(orders)))).isEqualTo(1);
        assertThat(received.get(0).headers()).containsEntry(Outbox.ID_HEADER, ids(t).get(0).toString());
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        // a send that leaves the database waits for the commit; one into a queue table joins the transaction
        assertThat(sentBeforeCommit).containsExactly(transportKind() == TableTestTransport.KIND ? 1 : 0);
    }

    @Test
    public final void a_publish_reports_the_row_it_wrote_and_whether_its_send_follows_the_commit() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);
        boolean intoTable = transportKind() == TableTestTransport.KIND;

        PublishResult alone = transport.publish(null, "orders", new Order(1));
        PublishResult[] inTransaction = new PublishResult[1];
        boolean[] sentBeforeCommit = new boolean[1];
        dsl(outbox).transaction(cfg -> {
            inTransaction[0] = transport.publish(DSL.using(cfg), "orders", new Order(2));
            sentBeforeCommit[0] = faults.sent.size() == 2;
        });
        await().atMost(PATIENCE).until(() -> received.size() == 2);

        assertThat(alone.inserted()).isTrue();
        assertThat(alone.deferred()).isFalse();
        assertThat(inTransaction[0].inserted()).isTrue();
        // a send that leaves the database waits for the commit, and says so; one into a queue table joins it
        assertThat(inTransaction[0].deferred()).isEqualTo(!intoTable).isEqualTo(!sentBeforeCommit[0]);
        if (intoTable) {
            // the row reported is the queue table's: the record's id travels in its header
            assertThat(alone.table()).isEqualTo(transport.handle());
            assertThat(List.of(alone.id(), inTransaction[0].id())).containsExactlyElementsOf(dsl()
                    .select(DSL.field(DSL.name("id"), Long.class)).from(DSL.table(DSL.name(transport.handle())))
                    .orderBy(DSL.field(DSL.name("id"))).fetch().getValues(0, Long.class));
        } else {
            assertThat(alone.table()).isEqualTo(t.getName());
            assertThat(List.of(alone.id(), inTransaction[0].id())).containsExactlyElementsOf(ids(t));
            assertThat(received).extracting(r -> r.headers().get(Outbox.ID_HEADER))
                    .containsExactly(alone.id().toString(), inTransaction[0].id().toString());
        }
    }

    @Test
    public final void a_publish_of_a_name_the_outbox_does_not_track_reports_no_record() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = new CopyOnWriteArrayList<>();
        transport.subscribe("invoices", Order.class, 1, into(received));
        transport.start();

        PublishResult result = transport.publish(null, "invoices", new Order(3));

        await().atMost(PATIENCE).until(() -> received.size() == 1);
        assertThat(records(t)).isZero();
        // into a queue table the publish still writes a row of its own; elsewhere it writes none
        assertThat(result.inserted()).isEqualTo(transportKind() == TableTestTransport.KIND);
        assertThat(result.deferred()).isFalse();
    }

    @Test
    public final void a_rolled_back_transaction_sends_nothing_and_leaves_no_record() {
        RecordTable t = newRecords();
        String orders = newBusinessTable();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);

        assertThatThrownBy(() -> dsl(outbox).transaction(cfg -> {
            DSLContext tx = DSL.using(cfg);
            tx.insertInto(DSL.table(DSL.name(orders))).set(DSL.field(DSL.name("id")), 8).execute();
            transport.publish(tx, "orders", new Order(8));
            throw new IllegalStateException("the business rule failed");
        })).hasMessageContaining("the business rule failed");

        publishMarkerAndAwait(transport, "orders", received, 99);
        assertThat(numbers(received)).containsExactly(99);
        // a send into a queue table went into the transaction and was rolled back with it; any other never left
        assertThat(faults.sent).hasSize(transportKind() == TableTestTransport.KIND ? 2 : 1);
        assertThat(records(t)).isEqualTo(1);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(orders)))).isZero();
    }

    @Test
    public final void a_transaction_the_outbox_cannot_see_commit_is_refused_unless_the_send_joins_it() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        transport.start();
        // a jOOQ transaction whose configuration lacks the outbox's listener
        if (transportKind() == TableTestTransport.KIND) {
            // a send into a queue table joins the transaction: there is no commit to wait for
            dsl().transaction(cfg -> transport.publish(DSL.using(cfg), "orders", new Order(1)));
            assertThat(records(t)).isEqualTo(1);
            assertThat(faults.sent).hasSize(1);
        } else {
            assertThatThrownBy(() -> dsl().transaction(cfg -> transport.publish(DSL.using(cfg), "orders",
                    new Order(1)))).hasMessageContaining("cannot see commit").hasMessageContaining("orders");
            assertThat(records(t)).isZero();
            assertThat(faults.sent).isEmpty();
        }
    }

    @Test
    public final void an_explicit_after_commit_frame_sends_on_committed_and_drops_on_close() throws Exception {
        Started started = started();
        RecordTable t = started.records();
        Outbox outbox = started.outbox();
        TestTransport transport = started.transport();
        List<Received> received = started.received();

        try (var c = pool.getConnection()) {
            c.setAutoCommit(false);
            AfterCommit rolledBack = outbox.afterCommit();
            try {
                transport.publish(DSL.using(c, database().sqlDialect()), "orders", new Order(1));
                c.rollback();
            } finally {
                rolledBack.close(); // closed without committed(): the send is dropped
            }
            try (AfterCommit after = outbox.afterCommit()) {
                transport.publish(DSL.using(c, database().sqlDialect()), "orders", new Order(2));
                c.commit();
                after.committed();
            }
            c.setAutoCommit(true);
        }

        publishMarkerAndAwait(transport, "orders", received, 99);
        assertThat(numbers(received)).containsExactly(2, 99);
        assertThat(records(t)).isEqualTo(2);
    }

    @Test
    public final void a_nested_transaction_hands_its_sends_to_the_outermost_and_one_rolled_back_drops_them() {
        Started started = started();
        RecordTable t = started.records();
        Outbox outbox = started.outbox();
        TestTransport transport = started.transport();
        List<Received> received = started.received();
        List<Integer> sentAfterInnerCommit = new ArrayList<>();

        dsl(outbox).transaction(outer -> {
            DSL.using(outer).transaction(inner -> transport.publish(DSL.using(inner), "orders", new Order(1)));
            sentAfterInnerCommit.add(faults.sent.size());
            try {
                DSL.using(outer).transaction(inner -> {
                    transport.publish(DSL.using(inner), "orders", new Order(2));
                    throw new IllegalStateException("the inner work failed");
                });
            } catch (IllegalStateException expected) {
                // the savepoint rolled back; the outer transaction goes on
            }
        });

        publishMarkerAndAwait(transport, "orders", received, 99);
        assertThat(numbers(received)).containsExactly(1, 99);
        assertThat(records(t)).isEqualTo(2);
        // a send into a queue table joined the transaction at once; any other waited for the outer commit
        assertThat(sentAfterInnerCommit).containsExactly(transportKind() == TableTestTransport.KIND ? 1 : 0);
    }

    @Test
    public final void a_message_that_carries_an_id_already_gets_a_record_and_an_id_of_its_own() throws Exception {
        Started started = started();
        RecordTable t = started.records();
        TestTransport transport = started.transport();
        List<Received> received = started.received();
        transport.publish(null, "orders", new Order(1));
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0 && received.size() == 1);

        // the headers of a delivery passed on to a new message (as a tracing middleware may)
        transport.sender().send("orders", "{\"n\":2}".getBytes(), received.get(0).headers());

        await().atMost(PATIENCE).until(() -> received.size() == 2 && unprocessed(t) == 0);
        List<Long> ids = ids(t);
        assertThat(ids).hasSize(2);
        assertThat(received.get(1).headers()).containsEntry(Outbox.ID_HEADER, ids.get(1).toString());
        assertThat(dsl().select(t.HEADERS).from(t).where(t.ID.eq(ids.get(1))).fetchOne(t.HEADERS))
                .doesNotContain(Outbox.ID_HEADER);
    }

    @Test
    public final void a_name_that_is_not_registered_passes_untouched() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = new CopyOnWriteArrayList<>();
        transport.subscribe("audit", Order.class, 1, into(received));
        transport.start();

        transport.publish(null, "audit", new Order(3));

        await().atMost(PATIENCE).until(() -> received.size() == 1);
        assertThat(received.get(0).headers()).doesNotContainKey(Outbox.ID_HEADER);
        assertThat(records(t)).isZero();
    }

    @Test
    public final void a_record_that_cannot_be_written_fails_the_publish_and_nothing_is_sent() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        transport.start();
        db.execute("DROP TABLE " + t.getName());

        assertThatThrownBy(() -> transport.publish(null, "orders", new Order(4)))
                .isInstanceOf(OutboxException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("orders")
                .hasMessageContaining("was not sent");
        assertThat(faults.sent).isEmpty();
    }

    @Test
    public final void a_record_that_cannot_be_written_in_the_callers_transaction_fails_it_and_nothing_is_sent() {
        RecordTable t = newRecords();
        String orders = newBusinessTable();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        transport.start();
        db.execute("DROP TABLE " + t.getName());

        assertThatThrownBy(() -> dsl(outbox).transaction(cfg -> {
            DSLContext tx = DSL.using(cfg);
            tx.insertInto(DSL.table(DSL.name(orders))).set(DSL.field(DSL.name("id")), 9).execute();
            transport.publish(tx, "orders", new Order(9));
        })).isInstanceOf(TableQueueException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("orders")
                .hasMessageContaining("was not sent");
        assertThat(faults.sent).isEmpty();
        assertThat(dsl().fetchCount(DSL.table(DSL.name(orders)))).isZero();
    }

    @Test
    public final void a_publish_in_the_callers_transaction_runs_one_statement_where_the_send_writes_the_record()
            throws Exception {
        Started started = started();
        RecordTable t = started.records();
        List<Received> received = started.received();
        AtomicInteger prepared = new AtomicInteger();

        try (Connection c = pool.getConnection(); AfterCommit after = started.outbox().afterCommit()) {
            c.setAutoCommit(false);
            Connection counted = ForwardingDataSource.intercepting(c, (target, method, args) -> {
                if (method.getName().startsWith("prepare")) {
                    prepared.incrementAndGet();
                }
                return ForwardingDataSource.forward(target, method, args);
            });
            started.transport().publish(DSL.using(counted, database().sqlDialect()), "orders", new Order(5));
            c.commit();
            after.committed();
            c.setAutoCommit(true);
        }

        await().atMost(PATIENCE).until(() -> received.size() == 1);
        assertThat(received.get(0).headers()).containsEntry(Outbox.ID_HEADER, ids(t).get(0).toString());
        // a send that leaves the database runs nothing on the caller's connection: the record is its one statement;
        // a send into a queue table writes the record in its own row's statement where the database can
        boolean table = transportKind() == TableTestTransport.KIND;
        assertThat(prepared.get()).isEqualTo(table && !database().writesTwoTablesInOneStatement() ? 2 : 1);
    }

    @Test
    public final void a_duplicate_copy_is_acknowledged_without_running_the_handler() throws Exception {
        Started started = started();
        RecordTable t = started.records();
        Outbox outbox = started.outbox();
        TestTransport transport = started.transport();
        List<Received> received = started.received();
        transport.publish(null, "orders", new Order(5));
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0 && received.size() == 1);

        // a copy of the message, as a republish sends it again
        Map<String, String> headers = received.get(0).headers();
        Republisher.resending(() -> transport.sender().send("orders", "{\"n\":5}".getBytes(), headers));

        publishMarkerAndAwait(transport, "orders", received, 99);
        assertThat(numbers(received)).containsExactly(5, 99);
    }

    @Test
    public final void a_record_that_cannot_be_read_retries_the_delivery_without_its_handler() {
        RecordTable t = newRecords();
        AtomicInteger fetches = new AtomicInteger();
        OutboxBinding<org.jooq.Record> flaky = t.builder().headers(t.HEADERS)
                .processedAt(t.PROCESSED_AT).ownFetch((ctx, id) -> {
                    if (fetches.incrementAndGet() == 1) {
                        throw new IllegalStateException("the database hiccupped");
                    }
                    return ctx.fetchExists(t, t.ID.eq((Long) id).and(t.PROCESSED_AT.isNotNull()));
                }).build();
        Outbox outbox = outbox(b -> b.register("orders", flaky));
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);

        transport.publish(null, "orders", new Order(6));

        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(fetches.get()).isEqualTo(2);
        assertThat(numbers(received)).containsExactly(6);
    }

    @Test
    public final void a_retried_delivery_leaves_its_record_for_the_republish_and_an_acknowledged_one_marks_it() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Long> unprocessedSeenByEachAttempt = new CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            unprocessedSeenByEachAttempt.add(unprocessed(t));
            return unprocessedSeenByEachAttempt.size() == 1 ? Outcome.retry() : Outcome.ack();
        });
        transport.start();

        transport.publish(null, "orders", new Order(7));

        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(unprocessedSeenByEachAttempt).containsExactly(1L, 1L);
    }

    @Test
    public final void a_record_table_the_database_lacks_fails_the_registry_when_it_is_built_naming_the_statement() {
        RecordTable missing = new RecordTable("records_nowhere", database().timeType());
        assertThatThrownBy(() -> outbox(missing, "orders"))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("records_nowhere")
                .hasMessageContaining("insert statement");
    }

    @Test
    public final void a_dropped_delivery_marks_its_record_processed() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        AtomicInteger calls = new AtomicInteger();
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            calls.incrementAndGet();
            return Outcome.drop();
        });
        transport.start();

        transport.publish(null, "orders", new Order(8));

        await().atMost(PATIENCE).until(() -> records(t) == 1 && unprocessed(t) == 0);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    public final void a_dead_lettered_delivery_marks_its_record_processed_so_the_republish_leaves_it() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        AtomicInteger calls = new AtomicInteger();
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            calls.incrementAndGet();
            return Outcome.deadLetter();
        });
        transport.start();

        transport.publish(null, "orders", new Order(9));

        await().atMost(PATIENCE).until(() -> records(t) == 1 && unprocessed(t) == 0);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    public final void a_mark_that_fails_is_logged_and_the_handlers_outcome_stands() {
        RecordTable t = newRecords();
        AtomicInteger marks = new AtomicInteger();
        OutboxBinding<org.jooq.Record> failing = t.builder().headers(t.HEADERS)
                .processedAt(t.PROCESSED_AT).own(OutboxEvent.ACK, (ctx, id) -> {
                    marks.incrementAndGet();
                    throw new IllegalStateException("the mark failed");
                }).build();
        Outbox outbox = outbox(b -> b.register("orders", failing));
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);

        transport.publish(null, "orders", new Order(9));
        publishMarkerAndAwait(transport, "orders", received, 99);

        // acknowledged once (not delivered again), the record left for the republish
        assertThat(numbers(received)).containsExactly(9, 99);
        assertThat(marks.get()).isEqualTo(2);
        assertThat(unprocessed(t)).isEqualTo(2);
    }

    @Test
    public final void a_delivery_without_a_valid_id_runs_untracked() throws Exception {
        Started started = started();
        RecordTable t = started.records();
        Outbox outbox = started.outbox();
        TestTransport transport = started.transport();
        List<Received> received = started.received();

        Republisher.resending(() -> transport.sender().send("orders", "{\"n\":10}".getBytes(),
                Map.of(Outbox.ID_HEADER, "not-an-id")));
        publishMarkerAndAwait(transport, "orders", received, 99);

        assertThat(numbers(received)).containsExactly(10, 99);
        assertThat(records(t)).isEqualTo(1);
    }

    @Test
    public final void the_republish_sends_every_unprocessed_record_again_in_id_order_with_its_id_and_headers() {
        RecordTable t = newRecords();
        long first = insertRecord(t, "orders", 1, "{\"tenant\":\"a\"}");
        long done = insertRecord(t, "orders", 2, null);
        processedAt(t, done, clock.instant());
        long third = insertRecord(t, "orders", 3, null);
        insertRecord(t, "audit", 4, null);
        Outbox outbox = outbox(t, "orders", "audit");
        TestTransport transport = transport(outbox);
        List<Received> orders = new CopyOnWriteArrayList<>();
        List<Received> audit = new CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(orders));
        transport.subscribe("audit", Order.class, 1, into(audit));
        transport.start();
        // the order of the sends is the republish's; the order of receipt is the transport's (on MariaDB a
        // claim of another group can lock a group's first row for a moment, and a claim passes over it once)
        List<String> sent = new CopyOnWriteArrayList<>();
        Sender sender = transport.sender();
        Sender recording = (name, payload, headers) -> {
            sent.add(headers.get(Outbox.ID_HEADER));
            sender.send(name, payload, headers);
        };

        assertThat(outbox.republish(recording, "orders")).isEqualTo(2);

        assertThat(sent).containsExactly(Long.toString(first), Long.toString(third));
        await().atMost(PATIENCE).until(() -> orders.size() == 2);
        assertThat(numbers(orders)).containsExactlyInAnyOrder(1, 3);
        assertThat(received(orders, 1).headers()).containsEntry("tenant", "a")
                .containsEntry(Outbox.ID_HEADER, Long.toString(first));
        assertThat(received(orders, 3).headers()).containsEntry(Outbox.ID_HEADER, Long.toString(third));
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 1);
        assertThat(audit).isEmpty();

        assertThat(outbox.republish(transport.sender())).isEqualTo(1);
        await().atMost(PATIENCE).until(() -> audit.size() == 1 && unprocessed(t) == 0);
    }

    private static Received received(List<Received> received, int n) {
        return received.stream().filter(r -> r.n() == n).findFirst().orElseThrow();
    }

    @Test
    public final void a_record_the_republish_cannot_send_fails_it_naming_the_record() {
        RecordTable t = newRecords();
        long id = insertRecord(t, "orders", 1, null);
        Outbox outbox = outbox(t, "orders");

        assertThatThrownBy(() -> outbox.republish((name, payload, headers) -> {
            throw new java.io.IOException("the broker is down");
        })).isInstanceOf(OutboxException.class)
                .hasMessageContaining("record " + id)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("the broker is down");
    }

    @Test
    public final void the_periodic_republish_sends_a_record_once_its_age_passed_from_one_instance_only()
            throws Exception {
        RecordTable t = newRecords();
        Outbox first = outbox(b -> b.register("orders", t.binding()).republishAfter(Duration.ofMinutes(1)));
        Outbox second = outbox(b -> b.register("orders", t.binding()).republishAfter(Duration.ofMinutes(1)));
        TestTransport transport = transport(first);
        List<Received> received = new CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(received));
        transport.start();
        faults.plan = m -> Faults.Fault.BEFORE_SEND;
        assertThatThrownBy(() -> transport.publish(null, "orders", new Order(11))).hasMessageContaining("injected");
        faults.plan = m -> Faults.Fault.NONE;

        assertThat(first.republishDue(transport.sender())).isZero();
        clock.advance(Duration.ofMinutes(2));
        CountDownLatch go = new CountDownLatch(1);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> passes = new ArrayList<>();
            for (Outbox instance : List.of(first, second)) {
                passes.add(pool.submit(() -> {
                    go.await();
                    return instance.republishDue(transport.sender());
                }));
            }
            go.countDown();
            int sent = 0;
            for (Future<Integer> pass : passes) {
                sent += pass.get(60, TimeUnit.SECONDS);
            }
            assertThat(sent).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(numbers(received)).containsExactly(11);
        clock.advance(Duration.ofMinutes(2));
        assertThat(second.republishDue(transport.sender())).isZero();
    }

    @Test
    public final void the_periodic_republish_sends_one_keys_records_in_id_order_holding_back_those_behind_a_failed_one() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(b -> b.register("orders", t.binding()).republishAfter(Duration.ofMinutes(1)));
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);
        String keyA = "{\"" + OutboxHeaders.KEY + "\":\"a\"}";
        long first = insertRecord(t, "orders", 1, keyA);
        long second = insertRecord(t, "orders", 2, keyA);
        long third = insertRecord(t, "orders", 3, keyA);
        insertRecord(t, "orders", 4, "{\"" + OutboxHeaders.KEY + "\":\"b\"}");
        java.util.concurrent.atomic.AtomicBoolean failOnce = new java.util.concurrent.atomic.AtomicBoolean(true);
        faults.plan = m -> String.valueOf(first).equals(m.headers().get(Outbox.ID_HEADER)) && failOnce.getAndSet(false)
                ? Faults.Fault.BEFORE_SEND : Faults.Fault.NONE;

        outbox.republishDue(transport.sender());
        assertThat(sentOfKey("a")).as("key a's records sent while its first failed").isEmpty();
        assertThat(sentOfKey("b")).hasSize(1);
        clock.advance(Duration.ofMinutes(2));
        outbox.republishDue(transport.sender());

        assertThat(sentOfKey("a")).containsExactly(String.valueOf(first), String.valueOf(second),
                String.valueOf(third));
        await().atMost(PATIENCE).until(() -> received.stream().map(Received::n).distinct().count() == 4);
    }

    /** The record ids of the messages of {@code key} that reached the send, in the order they did. */
    private List<String> sentOfKey(String key) {
        return faults.sent.stream().filter(s -> key.equals(s.headers().get(OutboxHeaders.KEY)))
                .map(s -> s.headers().get(Outbox.ID_HEADER)).toList();
    }

    @Test
    public final void a_started_outbox_republishes_due_records_on_a_thread_of_its_own() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(b -> b.register("orders", t.binding()).republishAfter(Duration.ofMinutes(1))
                .republishEvery(Duration.ofMillis(100)));
        TestTransport transport = transport(outbox);
        List<Received> received = ordersInto(transport);
        outbox.start(transport.sender());
        faults.plan = m -> Faults.Fault.BEFORE_SEND;
        assertThatThrownBy(() -> transport.publish(null, "orders", new Order(12))).hasMessageContaining("injected");
        faults.plan = m -> Faults.Fault.NONE;

        clock.advance(Duration.ofMinutes(2));

        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(numbers(received)).containsExactly(12);
    }

    @Test
    public final void the_retention_sweep_deletes_processed_records_older_than_the_retention() {
        RecordTable t = newRecords();
        long old = insertRecord(t, "orders", 1, null);
        long recent = insertRecord(t, "orders", 2, null);
        long open = insertRecord(t, "orders", 3, null);
        processedAt(t, old, clock.instant().minus(Duration.ofDays(8)));
        processedAt(t, recent, clock.instant().minus(Duration.ofDays(1)));
        Outbox outbox = outbox(b -> b.register("orders", t.binding()).retainProcessed(Duration.ofDays(7)));

        assertThat(outbox.sweep()).isEqualTo(1);
        assertThat(ids(t)).containsExactly(recent, open);
    }

    @Test
    public final void a_wrapped_send_outside_the_transports_is_tracked_as_theirs_are() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        List<Map<String, String>> sent = new CopyOnWriteArrayList<>();
        TrackedPublisher endpoint = outbox.wrap((name, payload, headers) -> sent.add(headers));

        endpoint.publish("orders", new Order(1));
        dsl(outbox).transaction(cfg -> {
            endpoint.publish(DSL.using(cfg), "orders", new Order(2));
            assertThat(sent).hasSize(1);
        });
        endpoint.publish("audit", new Order(3));

        assertThat(sent).hasSize(3);
        List<Long> ids = ids(t);
        assertThat(ids).hasSize(2);
        assertThat(sent.get(0)).containsEntry(Outbox.ID_HEADER, ids.get(0).toString());
        assertThat(sent.get(1)).containsEntry(Outbox.ID_HEADER, ids.get(1).toString());
        assertThat(sent.get(2)).doesNotContainKey(Outbox.ID_HEADER);
    }

    @Test
    public final void the_services_own_statements_settle_and_recover_records_in_place_of_the_outboxs() {
        RecordTable t = newRecords();
        List<String> settled = new CopyOnWriteArrayList<>();
        OutboxBinding<org.jooq.Record> own = t.builder().processedAt(t.PROCESSED_AT)
                .own(OutboxEvent.RETRY, (ctx, id) -> settled.add("retry " + id))
                .own(OutboxEvent.DROP, (ctx, id) -> {
                    settled.add("drop " + id);
                    ctx.deleteFrom(t).where(t.ID.eq((Long) id)).execute();
                })
                .ownRecover((ctx, names, after, limit) -> ctx.selectFrom(t)
                        .where(t.NAME.in(names)).and(after == null ? DSL.noCondition() : t.ID.gt((Long) after))
                        .orderBy(t.ID.desc()).limit(limit)
                        .fetch(r -> new PendingRecord(r.get(t.ID), r.get(t.NAME), r.get(t.PAYLOAD), Map.of("own", "yes"))))
                .build();
        Outbox outbox = outbox(b -> b.register("orders", own));
        TestTransport transport = transport(outbox);
        List<Received> received = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        transport.subscribe("orders", Order.class, 1, (order, d) -> {
            received.add(new Received(order.n(), d.headers()));
            return calls.incrementAndGet() == 1 ? Outcome.retry() : Outcome.drop();
        });
        transport.start();
        long first = insertRecord(t, "orders", 1, null);
        long second = insertRecord(t, "orders", 2, null);

        assertThat(outbox.republish(transport.sender())).isEqualTo(2);

        await().atMost(PATIENCE).until(() -> settled.size() == 3);
        // the service's own recover read the newest first; its retry left the record, its drop deleted it
        assertThat(received.get(0).n()).isEqualTo(2);
        assertThat(received.get(0).headers()).containsEntry("own", "yes");
        assertThat(settled).startsWith("retry " + second);
        assertThat(settled.subList(1, 3)).containsExactlyInAnyOrder("drop " + first, "drop " + second);
        // the own drop notes itself before its delete runs: wait for the delete, not for the note
        await().atMost(PATIENCE).until(() -> records(t) == 0);
    }

    @Test
    public final void a_thousand_messages_with_failed_sends_are_each_handled_once_and_every_record_processed() {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        Map<Integer, AtomicInteger> handled = new ConcurrentHashMap<>();
        transport.subscribe("orders", Order.class, 4, (order, d) -> {
            handled.computeIfAbsent(order.n(), n -> new AtomicInteger()).incrementAndGet();
            return Outcome.ack();
        });
        transport.start();
        // every 7th send fails before it leaves; every 11th leaves, then fails (as a lost confirm)
        faults.plan = m -> {
            int n = Integer.parseInt(new String(m.payload()).replaceAll("\\D", ""));
            return n % 7 == 3 ? Faults.Fault.BEFORE_SEND : n % 11 == 5 ? Faults.Fault.AFTER_SEND : Faults.Fault.NONE;
        };
        int failed = 0;
        for (int n = 0; n < 1000; n++) {
            try {
                transport.publish(null, "orders", new Order(n));
            } catch (RuntimeException e) {
                failed++;
            }
        }
        faults.plan = m -> Faults.Fault.NONE;
        int left = (int) java.util.stream.IntStream.range(0, 1000).filter(n -> n % 7 == 3).count();
        // the handler counts a delivery before the outbox marks its record (after the handler returns): wait for
        // the marks too, or the republish would also send a record whose delivery is still settling
        await().atMost(PATIENCE).until(() -> handled.size() == 1000 - left && unprocessed(t) == left);
        assertThat(failed).isGreaterThan(left);

        assertThat(outbox.republish(transport.sender())).isEqualTo(left);

        await().atMost(PATIENCE).until(() -> handled.size() == 1000 && unprocessed(t) == 0);
        assertThat(handled.values()).allSatisfy(count -> assertThat(count.get()).isEqualTo(1));
        assertThat(records(t)).isEqualTo(1000);
    }

    @Test
    public final void the_process_dies_between_the_commit_and_the_send_and_the_next_startup_delivers()
            throws Exception {
        RecordTable t = newRecords();
        Outbox outbox = outbox(t, "orders");
        TestTransport transport = transport(outbox);
        List<Received> received = new CopyOnWriteArrayList<>();
        transport.subscribe("orders", Order.class, 1, into(received));

        DyingPublisher.run(db.url(), database(), t, transportKind(), transport.handle());

        assertThat(records(t)).isEqualTo(1);
        assertThat(unprocessed(t)).isEqualTo(1);
        assertThat(received).isEmpty();
        transport.start();
        outbox.start(transport.sender());
        await().atMost(PATIENCE).until(() -> unprocessed(t) == 0);
        assertThat(numbers(received)).containsExactly(42);
    }
}
