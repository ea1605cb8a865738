package dev.tablequeue.test.contract;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.DeclarationException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.SettlementException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BatchOutcome;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.CommitWakeups;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How soon a row is claimed again, and what the broker tells and checks around its claims: a row returned by a
 * retry, rolled back by a failed settlement or published in the caller's transaction is claimed without waiting
 * for the poll; a settlement statement that fails reaches the listener with its outcome, row, table and SQL; a
 * data column the table lacks stops the start; and the connection budget (notifications on a small pool, a data
 * source that does not report its size).
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun, and so is the notifications test where the dialect has none. Each
 * database runs this suite through a small subclass that names its {@link ContractDatabase}; the tests are final.
 */
public abstract class WakeupContract extends BrokerFixture {

    /** A poll interval no test waits for: a row claimed within {@link #SOON} was woken, not polled. */
    private static final Duration LONG_POLL = Duration.ofSeconds(60);
    private static final Duration SOON = Duration.ofSeconds(10);

    // ================================================================ wake-ups

    /** A row returned by a retry, or by a retry after a delay that has come due, is claimed again at once. */
    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_row_returned_by_a_retry_or_a_due_retry_after_is_claimed_again_without_waiting_for_the_poll(
            Form form) {
        assumeTakes(form);
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = longPollBroker(new BrokerListener() {});
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            return switch (attempts.size()) {
                case 1 -> Outcome.retry();
                case 2 -> Outcome.retryAfter(Duration.ZERO);
                case 3 -> Outcome.retryAfter(Duration.ofMillis(300));
                default -> Outcome.ack();
            };
        });
        broker.start();
        publish(broker, b, "emails", 1);
        await().atMost(SOON).untilAsserted(() -> assertThat(attempts).containsExactly(1, 2, 3, 4));
        await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 1);
    }

    /** The rows of a row lock claim that a failed settlement rolled back are claimed again without the poll. */
    @Test
    public final void the_rows_of_a_row_lock_claim_rolled_back_by_a_failed_settlement_are_claimed_again_at_once() {
        assumeTakes(Form.ROW_LOCK);
        Jobs t = newTable();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD)
                .own(Event.ACK, (ctx, id) -> {
                    ctx.update(t).set(t.GRP, "sent").where(t.ID.eq((Long) id)).execute();
                    if (failOnce.getAndSet(false)) {
                        ctx.execute("update no_such_table set x = 1");
                    }
                })
                .build();
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = longPollBroker(settlementFailuresInto(failures));
        List<Object> delivered = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(2).handle((job, d) -> {
            delivered.add(d.id());
            return Outcome.ack();
        });
        broker.start();
        broker.publisher().publishAll(b, List.of(Message.of("emails", new Job(1, "mail")),
                Message.of("emails", new Job(2, "mail"))));
        await().atMost(SOON).until(() -> count(t, "grp = 'sent'") == 2);
        assertThat(failures).hasSize(2);
        assertThat(delivered).hasSize(4);
    }

    /**
     * Rows a row lock claim could not take while another claim's transaction held them (InnoDB holds the rows its
     * locking read passed over, not only those it returned) are claimed when that transaction commits, not at
     * the next poll, and without claiming over and over while the handlers hold the rows: 6 rows, batches of 4
     * and a poll no test waits for; the first batch's handler works a second. With two workers the other
     * worker's claim runs meanwhile; with one, the claim made once the handler returns races the commit. Where
     * the server holds the rows the first claim passed over (on MariaDB every other run drops the table's claim
     * index, so that the claim reads and holds every row), that claim finds nothing. Repeated, alternating.
     */
    @Test
    public final void rows_a_row_lock_claim_could_not_take_are_claimed_when_the_claim_holding_them_commits() {
        assumeTakes(Form.ROW_LOCK);
        for (int run = 0; run < 20; run++) {
            Jobs t = newTable();
            if (run % 2 == 0 && engine() == Engine.MARIADB) {
                // without its claim index, InnoDB sorts every row of the group, and holds each it read
                db.execute("DROP INDEX IF EXISTS " + t.getName() + "_claim ON " + t.getName());
            }
            insertJobs(t, 6);
            AtomicInteger claims = new AtomicInteger();
            QueueBroker broker = longPollBroker(new BrokerListener() {
                @Override
                public void claimed(InboxQueue<?> queue, int rows, Duration took) {
                    claims.incrementAndGet();
                }
            });
            AtomicInteger batches = new AtomicInteger();
            AtomicInteger handled = new AtomicInteger();
            AtomicLong firstReturned = new AtomicLong();
            AtomicLong lastArrived = new AtomicLong();
            broker.subscribe(InboxQueue.of(binding(t, Form.ROW_LOCK), "emails")).payload(Job.class)
                    .workers(2 - run / 2 % 2).batch(4).handle((jobs, deliveries) -> {
                        if (handled.addAndGet(jobs.size()) == 6) {
                            lastArrived.set(System.nanoTime());
                        }
                        if (batches.getAndIncrement() == 0) {
                            // the handler's work: time in which a claim that loops, rather than waits, would
                            // claim again and again
                            new CountDownLatch(1).await(1, SECONDS);
                            firstReturned.set(System.nanoTime());
                        }
                        return BatchOutcome.all(Outcome.ack());
                    });
            broker.start();
            int r = run;
            // where the server held nothing back, the last rows came while the first batch's handler worked
            await("run " + r + ": the last rows").atMost(SOON)
                    .until(() -> lastArrived.get() != 0 && firstReturned.get() != 0);
            assertThat(Duration.ofNanos(Math.max(0, lastArrived.get() - firstReturned.get())))
                    .as("run %d: from the first batch's return to the last rows", r)
                    .isLessThan(Duration.ofSeconds(1));
            awaitCount(t, "processed_at is not null", 6);
            // the first batch, the other worker's empty claim, the last rows, and a claim or two that find
            // nothing once they are taken: a claim that loops while the handler works makes dozens
            assertThat(claims.get()).as("claims of run %d", run).isLessThan(10);
            broker.close();
            brokers.remove(broker);
        }
    }

    /** A publish in a jOOQ transaction with {@link CommitWakeups} wakes its subscription when it commits. */
    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_publish_in_a_jooq_transaction_with_commit_wakeups_wakes_its_subscription_at_the_commit(
            Form form) {
        DSLContext ctx = DSL.using(new DefaultConfiguration().set(pool).set(engine().sqlDialect())
                .setAppending(new CommitWakeups()));
        aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(form, ctx);
    }

    /** A publish in a transaction the broker cannot watch is claimed soon after its commit all the same. */
    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_publish_in_a_transaction_the_broker_cannot_watch_is_claimed_soon_after_the_commit(Form form) {
        aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(form, dsl());
    }

    private void aPublishInTheCallersTransactionIsClaimedSoonAfterItsCommit(Form form, DSLContext ctx) {
        assumeTakes(form);
        // a lease claim on SQLite is a write, which waits for the publishing transaction's commit
        assumeTrue(engine() != Engine.SQLITE || form != Form.LEASE, "SQLite's lease claim waits");
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        QueueBroker broker = longPollBroker(new BrokerListener() {});
        List<Integer> handled = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        broker.start();
        Thread claims = claimThread(t);
        ctx.transaction(tx -> {
            broker.publisher().publish(tx.dsl(), b, Message.of("emails", new Job(1, "in a transaction")));
            // the caller's transaction goes on: a claim woken by the publish has found nothing and waits again
            await().atMost(PATIENCE).during(Duration.ofMillis(500))
                    .until(() -> claims.getState() == Thread.State.TIMED_WAITING);
        });
        await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 1);
        assertThat(handled).containsExactly(1);
    }

    private static Thread claimThread(Jobs t) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(th -> th.getName().startsWith("tablequeue-" + t.getName() + "-")
                        && th.getName().contains("-claim"))
                .findFirst().orElseThrow();
    }

    // ================================================================ settlement failures

    /** A settlement statement that fails reaches the listener as a {@link SettlementException} that names it. */
    @ParameterizedTest
    @EnumSource(Form.class)
    public final void a_settlement_statement_that_fails_reaches_the_listener_naming_the_outcome_row_table_and_sql(
            Form form) throws Exception {
        assumeTakes(form);
        Jobs t = newTable();
        Jobs dead = newTable();
        long id = insertJobs(t, 1).get(0);
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        QueueBroker broker = broker(settlementFailuresInto(failures));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        AtomicInteger deliveries = new AtomicInteger();
        broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class).maxAttempts(1)
                .deadLetterTable(dead).handle((job, d) -> {
                    if (deliveries.incrementAndGet() > 1) {
                        return Outcome.ack();
                    }
                    holding.countDown();
                    letGo.await(PATIENCE.toSeconds(), SECONDS);
                    return Outcome.retry();
                });
        broker.start();
        assertThat(holding.await(PATIENCE.toSeconds(), SECONDS)).isTrue();
        // the dead letter table goes away under the running subscription: the move into it fails
        db.execute("DROP TABLE " + dead.getName());
        letGo.countDown();
        await().atMost(PATIENCE).until(() -> failures.containsKey(id));
        Throwable failure = failures.get(id);
        assertThat(failure).isInstanceOf(SettlementException.class)
                .hasMessageContaining("retry")
                .hasMessageContaining("row " + id)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("dead letter copy")
                .hasCauseInstanceOf(SQLException.class);
        SettlementException settlement = (SettlementException) failure;
        assertThat(settlement.table()).isEqualTo(t.getName());
        assertThat(settlement.rowId()).isEqualTo(id);
        assertThat(settlement.sql()).containsIgnoringCase(dead.getName());
        assertThat(failure.getMessage()).contains(settlement.sql());
    }

    // ================================================================ start

    /** A data column the table lacks stops the start of a subscription, or of a route, naming what is missing. */
    @Test
    public final void a_data_column_the_table_lacks_stops_the_start_naming_the_table_the_column_and_the_insert() {
        assumeTakes(Form.LEASE);
        Jobs t = newTable();
        db.execute("ALTER TABLE " + t.getName() + " DROP COLUMN note");
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD).lease(t.LOCKED_UNTIL).data(t.NOTE).build();
        QueueBroker subscribed = broker();
        subscribed.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        assertThatThrownBy(subscribed::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("note")
                .hasMessageContaining("insert");

        // a route into the table, with no subscription on it, is checked too
        QueueBroker routed = database().broker(pool).route("emails", b).build();
        brokers.add(routed);
        assertThatThrownBy(routed::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("note")
                .hasMessageContaining("insert")
                .hasMessageContaining("route \"emails\"");
    }

    // ================================================================ the connection budget

    /**
     * A broker with notifications is refused at its build on a database that has none, saying so, and on a pool
     * that would leave its claims no connection.
     */
    @Test
    public final void listen_notify_is_refused_at_build_without_notifications_or_a_connection_for_the_claims()
            throws SQLException {
        java.util.Optional<String> refused;
        try (Connection c = pool.getConnection()) {
            refused = database().dialect(c).notifications().refuseListener();
        }
        if (refused.isPresent()) {
            assertThatThrownBy(() -> database().broker(pool).listenNotify().build())
                    .isInstanceOf(DeclarationException.class).hasMessage(refused.get())
                    .hasMessageContaining("listenNotify() needs a database with notifications (PostgreSQL)");
            return;
        }
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        try (HikariDataSource two = db.pool(2)) {
            // the listener keeps one of the two, and one always stays free for handlers and publishes
            assertThatThrownBy(() -> database().broker(two).listenNotify().build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining("listenNotify()")
                    .hasMessageContaining("pool of 2");
            assertThatThrownBy(() -> database().broker(pool).poolSize(2).listenNotify().build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining("listenNotify()");
        }
        try (HikariDataSource three = db.pool(3)) {
            QueueBroker broker = database().broker(three).clock(clock).pollInterval(LONG_POLL).listenNotify()
                    .build();
            brokers.add(broker);
            List<Integer> handled = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> {
                handled.add(job.n());
                return Outcome.ack();
            });
            broker.start();
            publish(broker, b, "emails", 2);
            await().atMost(SOON).until(() -> count(t, "processed_at is not null") == 2);
            assertThat(handled).containsExactlyInAnyOrder(0, 1);
            broker.close();
        }
    }

    /** A data source that does not report its size is refused until it is declared, then kept to its budget. */
    @Test
    public final void a_data_source_that_does_not_report_its_pool_size_is_refused_until_the_size_is_declared() {
        assumeTakes(Form.ADVISORY);
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        try (HikariDataSource three = db.pool(3)) {
            three.setConnectionTimeout(5_000);
            DataSource unsized = new UnsizedDataSource(three);
            assertThatThrownBy(() -> database().broker(unsized).build())
                    .isInstanceOf(DeclarationException.class)
                    .hasMessageContaining(UnsizedDataSource.class.getName())
                    .hasMessageContaining("poolSize(n)");

            // declared, the budget holds as on a pool that reports its size: each advisory delivery holds a
            // connection and the third stays free, so every handler's own query is served at once (else it
            // would time out, and its row be delivered again)
            QueueBroker broker = database().broker(unsized).poolSize(3).clock(clock).pollInterval(POLL).build();
            brokers.add(broker);
            AtomicInteger deliveries = new AtomicInteger();
            List<Integer> queried = new CopyOnWriteArrayList<>();
            broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
                deliveries.incrementAndGet();
                queried.add(d.db().selectOne().fetchOne(0, Integer.class));
                return Outcome.ack();
            });
            broker.start();
            publish(broker, b, "emails", 12);
            await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 12);
            assertThat(deliveries).hasValue(12);
            assertThat(queried).hasSize(12).containsOnly(1);
            broker.close();
        }
    }

    /** A data source that is no HikariCP pool and does not say how many connections it gives. */
    private static final class UnsizedDataSource extends ForwardingDataSource {
        UnsizedDataSource(DataSource target) {
            super(target);
        }
    }

    private QueueBroker longPollBroker(BrokerListener listener) {
        return broker(listener, settings -> settings.pollInterval(LONG_POLL));
    }

    /** Skips the test where the database does not take {@code form}. */
    private void assumeTakes(Form form) {
        assumeTrue(forms().contains(form), () -> database() + " does not take the " + form + " form");
    }
}
