package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.SettlementException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.sql.Connection;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How outcomes are written: the error a failed settlement reports, and the pace of a subscription whose pool is
 * small. Each database runs it through a small subclass that names its {@link ContractDatabase}; the tests are
 * final.
 */
public abstract class SettlementContract extends BrokerFixture {

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

    /**
     * An acknowledgement the server refuses (a trigger raises an error: PostgreSQL's {@code RAISE EXCEPTION},
     * MariaDB's and MySQL's {@code SIGNAL SQLSTATE '45000'}, SQLite's {@code RAISE(ABORT, ..)}) fails, named by a
     * {@link SettlementException} that names its statement, while the connection it ran on stays sound: it is
     * not taken for a lost connection, so it is neither written again nor reported as possibly written
     * ({@code settlementUnknown}). MariaDB's driver raises a signal as a {@code SQLTransientConnectionException}.
     */
    @ParameterizedTest
    @EnumSource(Form.class)
    public final void an_acknowledgement_a_trigger_refuses_fails_naming_its_statement_and_is_not_reported_unknown(
            Form form) {
        assumeTrue(forms().contains(form), "this database does not take the " + form + " form");
        Jobs t = newTable();
        db.execute(refusingAcknowledgements(t.getName()));
        long id = insertJobs(t, 1).get(0);
        Map<Object, Throwable> failed = new ConcurrentHashMap<>();
        Map<Object, Throwable> unknown = new ConcurrentHashMap<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failed.putIfAbsent(delivery.id(), failure);
            }

            @Override
            public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
                unknown.putIfAbsent(delivery.id(), failure);
            }
        });
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        await().atMost(PATIENCE).until(() -> !failed.isEmpty() || !unknown.isEmpty());
        broker.close();
        assertThat(unknown).as("settlements reported as possibly written").isEmpty();
        assertThat(failed).containsOnlyKeys(id);
        assertThat(failed.get(id)).isInstanceOf(SettlementException.class)
                .hasMessageContaining("table \"" + t.getName() + "\"")
                .hasMessageContaining("refuses acknowledgements")
                .satisfies(e -> assertThat(((SettlementException) e).statement()).contains("ack"));
        assertThat(count(t, "processed_at is not null")).isZero();
    }

    /** The DDL of a trigger that refuses every acknowledgement of a row of {@code table}: an update that sets processed_at. */
    private String[] refusingAcknowledgements(String table) {
        String refusal = "a trigger of the test refuses acknowledgements";
        return switch (engine()) {
            case POSTGRES -> new String[] {
                "CREATE FUNCTION " + table + "_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '"
                        + refusal + "'; END $$",
                "CREATE TRIGGER " + table + "_refuse BEFORE UPDATE ON " + table + " FOR EACH ROW WHEN"
                        + " (NEW.processed_at IS NOT NULL AND OLD.processed_at IS NULL) EXECUTE FUNCTION " + table
                        + "_refuse()"};
            case MARIADB, MYSQL -> new String[] {
                "CREATE TRIGGER " + table + "_refuse BEFORE UPDATE ON " + table + " FOR EACH ROW BEGIN IF"
                        + " NEW.processed_at IS NOT NULL AND OLD.processed_at IS NULL THEN SIGNAL SQLSTATE '45000' SET"
                        + " MESSAGE_TEXT = '" + refusal + "'; END IF; END"};
            case SQLITE -> new String[] {
                "CREATE TRIGGER " + table + "_refuse BEFORE UPDATE ON " + table + " FOR EACH ROW WHEN"
                        + " NEW.processed_at IS NOT NULL AND OLD.processed_at IS NULL BEGIN SELECT RAISE(ABORT, '"
                        + refusal + "'); END"};
        };
    }

    /**
     * In the row lock form, a claim's settlement that waits for a row lock another claim's open transaction
     * holds goes on once that claim settles: each claim settles on a thread of its own, so the settlements that
     * wait never hold back the one they wait for. (On MariaDB a claim can keep a lock on the claim index's entry
     * of a row it passed over, which the acknowledgement of that row then waits for; here the service's own
     * acknowledgement of two rows updates a third row, which a third claim holds.) Queued behind the two
     * waiting settlements, the third claim's would wait until the server's lock timeout, and all three fail.
     */
    @Test
    public final void a_settlement_that_waits_for_another_claims_lock_goes_on_once_that_claim_settles()
            throws Exception {
        assumeTrue(forms().contains(Form.ROW_LOCK), "this database does not take the row lock form");
        Jobs t = newTable();
        Set<Long> third = ConcurrentHashMap.newKeySet();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, rowId) -> {
                    for (Long held : third) {
                        if (!held.equals(rowId)) {
                            ctx.update(t).set(t.ATTEMPT, t.ATTEMPT).where(t.ID.eq(held)).execute();
                        }
                    }
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) rowId)).execute();
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Set<Object> entered = ConcurrentHashMap.newKeySet();
        CountDownLatch thirdClaimed = new CountDownLatch(1);
        ServerSessions sessions = new ServerSessions(engine(), pool);
        QueueBroker broker = broker(settlementFailuresInto(failures));
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(3).handle((job, d) -> {
            entered.add(d.id());
            if (job.n() == 3) {
                third.add((Long) d.id());
                thirdClaimed.countDown();
                // returns once the two other claims' settlements wait for this claim's lock on its row
                await().atMost(PATIENCE).until(() -> sessions.waitingOnALock("%" + t.getName() + "%").size() == 2);
            } else {
                assertThat(thirdClaimed.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            }
            return Outcome.ack();
        });
        broker.start();
        // one row at a time, each taken by a claim of its own before the next comes
        for (int n = 1; n <= 3; n++) {
            long id = insertRaw(t, "emails", ("{\"n\":" + n + ",\"kind\":\"mail\"}").getBytes());
            await().atMost(PATIENCE).until(() -> entered.contains(id));
        }

        await().atMost(PATIENCE).until(() -> count(t, "grp = 'sent'") == 3 || !failures.isEmpty());
        assertThat(failures).isEmpty();
        assertThat(count(t, "grp = 'sent'")).isEqualTo(3);
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
            QueueBroker broker = database().broker(small).clock(clock).pollInterval(Duration.ofSeconds(5)).build();
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
