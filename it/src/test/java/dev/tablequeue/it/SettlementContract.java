package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.SettlementException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.testkit.LiveDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How outcomes are written: the transaction each settlement opens, the error a failed one reports, and the
 * pace of a subscription whose pool is small. Each database runs it through a small subclass; the tests are
 * final.
 */
public abstract class SettlementContract extends BrokerFixture {

    /** The opening each test declares: SERIALIZABLE on a server, BEGIN IMMEDIATE on SQLite. */
    private RoleBinding.Builder<Record> declaringAnOpening(RoleBinding.Builder<Record> b) {
        return engine() == LiveDatabase.Engine.SQLITE ? b.sqliteMode(SqliteMode.IMMEDIATE)
                : b.isolation(Isolation.SERIALIZABLE);
    }

    private String declaredOpening() {
        return engine() == LiveDatabase.Engine.SQLITE ? "immediate" : "serializable";
    }

    /** A binding whose own acknowledgement marks the row "sent" and tells {@code seen} how its transaction opened. */
    private RoleBinding<Record> recordingTheOpening(Jobs t, Form form, Consumer<String> seen) {
        ServerProbe probe = new ServerProbe(db);
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, id) -> {
                    // SQLite is probed before the write takes its lock, a server after it starts the transaction
                    boolean sqlite = engine() == LiveDatabase.Engine.SQLITE;
                    if (sqlite) {
                        seen.accept(probe.openingOf(ctx, db.url()));
                    }
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if (!sqlite) {
                        seen.accept(probe.openingOf(ctx, db.url()));
                    }
                });
        b = declaringAnOpening(b);
        return (form == Form.LEASE ? b.lease(t.LOCKED_UNTIL) : b.advisory(t.getName() + "-{id}")).build();
    }

    @Test
    public final void an_advisory_settlement_opens_its_transaction_as_the_binding_declares() {
        Jobs t = newTable();
        List<String> openings = new CopyOnWriteArrayList<>();
        RoleBinding<Record> b = recordingTheOpening(t, Form.ADVISORY, openings::add);
        insertJobs(t, 2);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 2);
        assertThat(openings).containsExactly(declaredOpening(), declaredOpening());
    }

    @Test
    public final void a_lease_settlement_written_alone_opens_its_transaction_as_a_batch_of_them_does() {
        Jobs t = newTable();
        List<String> alone = new CopyOnWriteArrayList<>();
        List<String> together = new CopyOnWriteArrayList<>();
        AtomicReference<List<String>> phase = new AtomicReference<>(alone);
        RoleBinding<Record> b = recordingTheOpening(t, Form.LEASE, seen -> phase.get().add(seen));
        AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(1));
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            // the handlers of one claim return together, so their outcomes are written as one batch
            CountDownLatch all = gate.get();
            all.countDown();
            all.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        insertJobs(t, 1);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 1);
        phase.set(together);
        gate.set(new CountDownLatch(4));
        List<Message> four = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            four.add(Message.of("emails", new Job(i, "batch")));
        }
        broker.publisher().publishAll(b, four);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 5);
        assertThat(alone).hasSize(1);
        assertThat(together).hasSize(4).containsOnly(alone.get(0));
        if (engine() == LiveDatabase.Engine.SQLITE) {
            assertThat(alone).containsExactly(declaredOpening());
        }
    }

    @Test
    public final void a_settlement_whose_rollback_fails_too_reports_its_own_failure() {
        Jobs t = newTable();
        long id = insertJobs(t, 1).get(0);
        AtomicBoolean failOnce = new AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory(t.getName() + "-{id}")
                .own(Event.ACK, (ctx, rowId) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) rowId)).execute();
                    if (failOnce.getAndSet(false)) {
                        // the connection goes away under the settlement, so its rollback fails as well
                        ctx.connection(Connection::close);
                        throw new IllegalStateException("the acknowledgement of row " + rowId + " failed");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 1);
        assertThat(failures).containsOnlyKeys(id);
        // the listener hears the settlement's own failure, named by a SettlementException, not the rollback's
        assertThat(failures.get(id)).isInstanceOf(SettlementException.class)
                .hasMessageContaining("table \"" + t.getName() + "\"")
                .cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("the acknowledgement of row " + id + " failed");
    }

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_pool_of_three_serves_sixteen_workers_promptly(Form form) {
        assumeTrue(forms().contains(form), "this database does not take the " + form + " form");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        insertMany(t, "bulk", 300);
        Map<Object, Integer> seen = new ConcurrentHashMap<>();
        try (HikariDataSource small = db.pool(3)) {
            // a long poll interval: a claim that waits for a connection until its poll ends stands out at once
            QueueBroker broker = QueueBroker.builder(small).clock(clock).pollInterval(Duration.ofSeconds(5)).build();
            brokers.add(broker);
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(16).handle((job, d) -> {
                seen.merge(d.id(), 1, Integer::sum);
                // a handler's own query, on the connection the budget leaves free
                d.db().selectOne().fetch();
                return Outcome.ack();
            });
            broker.start();
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 300);
            broker.close();
        }
        assertThat(seen).hasSize(300);
        assertThat(seen.values()).containsOnly(1);
    }
}
