package dev.tablequeue.test.contract;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.LeaseLostException;
import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * How long leases hold and what a lost connection costs a delivery: leases kept by their keeper across brokers
 * and handlers longer than a lease, a lease extension or an acknowledgement whose connection fails or is killed
 * on the server (written again, or reported unknown), and a settlement that comes after its lease ran out.
 *
 * <p>A test of a form the database does not take is skipped (an assumption), never passed unrun; so is a test that
 * kills the server's sessions where the hook says it cannot ({@link ContractDatabase#killsSessions()}). Each
 * database runs this suite through a small subclass that names its {@link ContractDatabase}; the tests are final.
 */
public abstract class LeaseContract extends BrokerFixture {

    /** How long a test waits for what follows a kill: the retry of a settlement, a delivery after a lease. */
    private static final Duration SOON = Duration.ofSeconds(10);

    /** Two brokers whose keepers hold one second leases over three second handlers deliver each row once. */
    @Test
    public final void two_brokers_keep_one_second_leases_over_three_second_handlers_and_deliver_each_row_once() {
        assumeTakes(Form.LEASE);
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Map<Integer, Integer> seen = new ConcurrentHashMap<>();
        List<QueueBroker> two = List.of(
                broker(settlementFailuresInto(failures), settings -> settings.lease(Duration.ofSeconds(1))),
                broker(settlementFailuresInto(failures), settings -> settings.lease(Duration.ofSeconds(1))));
        for (QueueBroker broker : two) {
            broker.subscribe(InboxQueue.of(b, "bulk")).payload(Job.class).workers(4).handle((job, d) -> {
                seen.merge(job.n(), 1, Integer::sum);
                // the work takes three leases' time; nothing waits on it
                Thread.sleep(3_000);
                return Outcome.ack();
            });
        }
        // six rows for eight workers: the two idle workers claim every poll, and would take a row whose lease
        // the keeper let lapse
        insertMany(t, "bulk", 6);
        two.forEach(QueueBroker::start);
        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 6);
        assertThat(seen).hasSize(6);
        assertThat(seen.values()).containsOnly(1);
        assertThat(failures).isEmpty();
    }

    /** An acknowledgement whose session the server ends is written again on another connection. */
    @Test
    public final void an_acknowledgement_whose_connection_is_killed_is_written_again_on_another_while_its_lease_holds()
            throws Exception {
        Settled settled = new Settled();
        Killed killed = killTheAcknowledgementsConnection(settled, false);
        await().atMost(SOON).until(() -> settled.written.contains(killed.id()));
        assertThat(count(killed.table(), "processed_at is not null")).isEqualTo(1);
        assertThat(settled.failed).isEmpty();
        assertThat(settled.unknown).isEmpty();
        assertThat(settled.deliveries).hasValue(1);
    }

    /** A lease outcome cut off by a kill after its lease ran out reaches the listener as unknown, not failed. */
    @Test
    public final void a_lease_outcome_whose_commit_a_killed_connection_left_unknown_is_reported_unknown_not_failed()
            throws Exception {
        Settled settled = new Settled();
        // the lease runs out before the kill, so the acknowledgement is not written again
        Killed killed = killTheAcknowledgementsConnection(settled, true);
        long id = killed.id();
        await().atMost(SOON).until(() -> settled.unknown.containsKey(id));
        assertThat(settled.unknown.get(id)).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("row " + id)
                .hasMessageContaining("\"" + killed.table().getName() + "\"")
                .hasMessageContaining("acknowledgement");
        assertThat(((OutcomeUnknownException) settled.unknown.get(id)).rowId()).isEqualTo(id);
        // the row was not lost: its lease ran out, and it is delivered again and acknowledged
        await().atMost(SOON).until(() -> settled.written.contains(id));
        assertThat(settled.failed).isEmpty();
        assertThat(settled.deliveries).hasValue(2);
    }

    /** A row lock claim whose session is killed during its commit reports its outcome unknown (PostgreSQL). */
    @Test
    public final void a_row_lock_claim_whose_connection_is_killed_during_its_commit_reports_its_outcome_unknown()
            throws Exception {
        assumeTrue(engine() == Engine.POSTGRES,
                "only PostgreSQL runs a trigger at the commit, where the test can hold the commit back");
        assumeTakes(Form.ROW_LOCK);
        ServerSessions sessions = sessions();
        Jobs t = newTable();
        String gate = t.getName() + "_gate";
        // a deferred trigger makes the commit wait on a row of the gate table, which the test holds
        db.execute("CREATE TABLE " + gate + " (id INT PRIMARY KEY)", "INSERT INTO " + gate + " VALUES (1)",
                "CREATE FUNCTION " + gate + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM 1 FROM " + gate
                        + " FOR UPDATE; RETURN NULL; END $$",
                "CREATE CONSTRAINT TRIGGER " + gate + " AFTER UPDATE ON " + t.getName()
                        + " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION " + gate + "()");
        long id = insertJobs(t, 1).get(0);
        Settled settled = new Settled();
        QueueBroker broker = broker(settled);
        broker.subscribe(InboxQueue.of(binding(t, Form.ROW_LOCK), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            return Outcome.ack();
        });
        try (Connection locker = pool.getConnection()) {
            locker.setAutoCommit(false);
            DSL.using(locker, engine().sqlDialect()).fetch("select id from " + gate + " for update");
            broker.start();
            long session = await().atMost(PATIENCE).until(() -> sessions.waitingOnALock("COMMIT"),
                    waiting -> waiting.size() == 1).get(0);
            sessions.kill(session);
            locker.rollback();
        }
        await().atMost(SOON).until(() -> settled.unknown.containsKey(id));
        assertThat(settled.unknown.get(id)).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("row " + id).hasMessageContaining(t.getName());
        // the server rolled the cut-off commit back: the row is delivered again and acknowledged
        await().atMost(SOON).until(() -> settled.written.contains(id));
        assertThat(settled.failed).isEmpty();
        assertThat(settled.deliveries).hasValue(2);
    }

    /** A lease extension whose connection fails before it is sent is written again at once on another. */
    @Test
    public final void a_lease_extension_whose_connection_fails_is_written_again_at_once_on_another()
            throws Exception {
        ExtensionCutOff cut = cutOffAnExtension(FailingConnections.When.BEFORE);
        // the keeper's next run is five seconds away: the extension is written again long before it
        await().atMost(Duration.ofSeconds(3)).until(() -> cut.connections().runAfter.get() >= 1);
        cut.letGo().countDown();
        await().atMost(PATIENCE).until(() -> count(cut.table(), "processed_at is not null") == 1);
        assertThat(cut.settled().failed).isEmpty();
        assertThat(cut.settled().leasesLost).isEmpty();
        assertThat(cut.settled().deliveries).hasValue(1);
    }

    /** A lease extension written but whose answer was lost keeps the lease it wrote: the row is acknowledged. */
    @Test
    public final void a_lease_extension_whose_answer_was_lost_keeps_the_lease_it_wrote() throws Exception {
        // the row holds the token the extension wrote, which the delivery never heard of
        ExtensionCutOff cut = cutOffAnExtension(FailingConnections.When.AFTER);
        cut.letGo().countDown();
        await().atMost(PATIENCE).until(() -> count(cut.table(), "processed_at is not null") == 1);
        assertThat(cut.settled().failed).isEmpty();
        assertThat(cut.settled().leasesLost).isEmpty();
        assertThat(cut.settled().deliveries).hasValue(1);
    }

    /** The row whose lease extension was cut off, the connections that cut it, the listener, the handler's gate. */
    private record ExtensionCutOff(Jobs table, FailingConnections connections, Settled settled,
            CountDownLatch letGo) {}

    /**
     * Delivers one lease row (a ten second lease, so the keeper runs every five) whose handler waits, and
     * cuts the connection of the keeper's first extension off {@code when}.
     */
    private ExtensionCutOff cutOffAnExtension(FailingConnections.When when) throws Exception {
        assumeTakes(Form.LEASE);
        Jobs t = newTable();
        insertJobs(t, 1);
        FailingConnections connections = new FailingConnections(pool, FailingConnections::leaseExtension);
        Settled settled = new Settled();
        QueueBroker broker = database().broker(connections).poolSize(12).clock(clock).pollInterval(POLL)
                .lease(Duration.ofSeconds(10)).drainTimeout(Duration.ofSeconds(10)).listener(settled).build();
        brokers.add(broker);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(binding(t, Form.LEASE), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // a second on, the extension writes a token of its own rather than the claim's again
        clock.advance(Duration.ofSeconds(1));
        connections.arm(when);
        assertThat(connections.failed.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        return new ExtensionCutOff(t, connections, settled, letGo);
    }

    /** What a broker's listener heard of settlements, and how many deliveries the handler saw. */
    private static final class Settled implements BrokerListener {
        final List<Object> written = new CopyOnWriteArrayList<>();
        final Map<Object, Throwable> failed = new ConcurrentHashMap<>();
        final Map<Object, Throwable> unknown = new ConcurrentHashMap<>();
        final List<Object> leasesLost = new CopyOnWriteArrayList<>();
        final AtomicInteger deliveries = new AtomicInteger();

        @Override
        public void settled(Delivery delivery, Outcome outcome) {
            written.add(delivery.id());
        }

        @Override
        public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
            failed.put(delivery.id(), failure);
        }

        @Override
        public void settlementUnknown(Delivery delivery, Outcome outcome, Throwable failure) {
            unknown.put(delivery.id(), failure);
        }

        @Override
        public void leaseLost(Delivery delivery) {
            leasesLost.add(delivery.id());
        }
    }

    /** The row whose acknowledgement's connection was killed, and its table. */
    private record Killed(Jobs table, long id) {}

    /**
     * Delivers one lease row whose acknowledgement then waits on a row lock the test holds; kills the
     * session of that acknowledgement on the server (after moving the clock past the lease, with
     * {@code leaseRunsOut}), then lets the row go.
     */
    private Killed killTheAcknowledgementsConnection(Settled settled, boolean leaseRunsOut) throws Exception {
        assumeTakes(Form.LEASE);
        ServerSessions sessions = sessions();
        Jobs t = newTable();
        long id = insertJobs(t, 1).get(0);
        QueueBroker broker = broker(settled);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(binding(t, Form.LEASE), "emails")).payload(Job.class).handle((job, d) -> {
            settled.deliveries.incrementAndGet();
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        try (Connection locker = pool.getConnection()) {
            locker.setAutoCommit(false);
            DSL.using(locker, engine().sqlDialect()).selectFrom(t).where(t.ID.eq(id)).forUpdate().fetch();
            letGo.countDown();
            String acknowledgement = "%" + t.getName() + "%processed_at%";
            long session = await().atMost(PATIENCE).until(() -> sessions.waitingOnALock(acknowledgement),
                    waiting -> waiting.size() == 1).get(0);
            if (leaseRunsOut) {
                clock.advance(Duration.ofMinutes(5));
            }
            sessions.kill(session);
            locker.rollback();
        }
        return new Killed(t, id);
    }

    /** A settlement that comes after its lease ran out and another claim took the row fails and changes nothing. */
    @Test
    public final void a_late_settlement_after_the_lease_ran_out_fails_and_changes_nothing() throws Exception {
        assumeTakes(Form.LEASE);
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        QueueBroker first = broker(new BrokerListener() {
            @Override
            public void settlementFailed(Delivery delivery, Outcome outcome, Throwable failure) {
                failures.add(failure);
            }
        });
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        first.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        first.start();
        publish(first, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();

        // the lease runs out (the host clock moves past it), and another broker claims the row
        clock.advance(Duration.ofMinutes(5));
        List<Integer> secondAttempts = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            secondAttempts.add(d.attempt().orElseThrow());
            return Outcome.retryAfter(Duration.ofHours(1));
        });
        second.start();
        await().atMost(PATIENCE).until(() -> secondAttempts.size() == 1);
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.size() == 1);
        assertThat(failures.get(0)).isInstanceOf(LeaseLostException.class).hasMessageContaining(t.getName());
        assertThat(secondAttempts).containsExactly(2);
        assertThat(count(t, "processed_at is null")).isEqualTo(1);
    }

    /** The keeper moves the lease on while the handler runs, on the host's clock. */
    @Test
    public final void the_keeper_extends_the_lease_while_the_handler_runs() throws Exception {
        assumeTakes(Form.LEASE);
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.LEASE);
        QueueBroker broker = database().broker(pool).pollInterval(POLL).lease(Duration.ofSeconds(1)).build();
        brokers.add(broker);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            holding.countDown();
            letGo.await(PATIENCE.toSeconds(), SECONDS);
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 1);
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        Instant first = lockedUntil(t);
        await().atMost(PATIENCE).until(() -> lockedUntil(t).isAfter(first.plusSeconds(1)));
        letGo.countDown();
        awaitCount(t, "processed_at is not null", 1);
    }

    /** Skips the test where the database does not take {@code form}. */
    private void assumeTakes(Form form) {
        assumeTrue(forms().contains(form), () -> database() + " does not take the " + form + " form");
    }

    /** The server's sessions, on the suite's pool; skips the test where the hook says they cannot be killed. */
    private ServerSessions sessions() {
        assumeTrue(database().killsSessions(), () -> database() + " has no server sessions the suite can kill");
        return new ServerSessions(engine(), pool);
    }
}
