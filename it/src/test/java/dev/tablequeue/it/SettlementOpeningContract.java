package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The transaction each settlement opens, read off the server: as the binding declares it, and the same for a
 * lease settlement written alone as for a batch of them. Each database runs it through a small subclass; the
 * tests are final.
 */
public abstract class SettlementOpeningContract extends BrokerFixture {

    /** The opening each test declares: SERIALIZABLE on a server, BEGIN IMMEDIATE on SQLite. */
    private RoleBinding.Builder<Record> declaringAnOpening(RoleBinding.Builder<Record> b) {
        return engine() == Engine.SQLITE ? b.sqliteMode(SqliteMode.IMMEDIATE)
                : b.isolation(Isolation.SERIALIZABLE);
    }

    private String declaredOpening() {
        return engine() == Engine.SQLITE ? "immediate" : "serializable";
    }

    /** A binding whose own acknowledgement marks the row "sent" and tells {@code seen} how its transaction opened. */
    private RoleBinding<Record> recordingTheOpening(Jobs t, Form form, Consumer<String> seen) {
        ServerProbe probe = new ServerProbe(db);
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, id) -> {
                    // SQLite is probed before the write takes its lock, a server after it starts the transaction
                    boolean sqlite = engine() == Engine.SQLITE;
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
        if (engine() == Engine.SQLITE) {
            assertThat(alone).containsExactly(declaredOpening());
        }
    }

}
