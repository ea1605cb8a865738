package dev.tablequeue.broker;

import static dev.tablequeue.binding.ExampleTables.REPORT_JOBS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.SqliteDialect;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * A claim thread that is interrupted while it waits gives back what it took. Nothing in the broker
 * interrupts its claim threads, so this reaches into the package: it holds the write turn a SQLite lease
 * claim waits for, then interrupts the claim thread there.
 */
class ClaimInterruptIT {

    @Test
    void a_lease_claim_interrupted_while_it_waits_for_the_write_turn_gives_its_budget_permit_back() throws Exception {
        try (FreshDatabase db = FreshDatabase.create(Engine.SQLITE, "claim_interrupt");
                HikariDataSource pool = db.pool(3)) {
            db.execute("CREATE TABLE report_jobs (id INTEGER PRIMARY KEY, attempt INTEGER NOT NULL DEFAULT 1,"
                    + " locked_until TEXT, payload BLOB NOT NULL)");
            RoleBinding<Record> binding = RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID).attempt(REPORT_JOBS.ATTEMPT)
                    .lease(REPORT_JOBS.LOCKED_UNTIL).payload(REPORT_JOBS.PAYLOAD).build();
            QueueBroker broker = QueueBroker.builder(pool).dialect(new SqliteDialect())
                    .pollInterval(Duration.ofMillis(50)).build();
            Mount<byte[]> mount = new Mount<>(broker, InboxQueue.of(binding, "reports"), byte[].class, false);
            Subscription<byte[]> subscription = new Subscription<>(broker, mount, (payload, d) -> Outcome.ack());
            try (Connection c = pool.getConnection()) {
                subscription.open(c);
            }
            ReentrantLock turn = subscription.writeTurn();
            turn.lock();
            Thread claims;
            try {
                subscription.start();
                claims = Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().equals("tablequeue-report_jobs-reports-claim-1"))
                        .findFirst().orElseThrow();
                // the claim took a budget permit, then waits for the turn
                await().atMost(Duration.ofSeconds(10)).until(() -> turn.hasQueuedThread(claims));
                claims.interrupt();
                await().atMost(Duration.ofSeconds(10)).until(() -> !claims.isAlive());
            } finally {
                turn.unlock();
            }
            // the pool of three has two permits, and both are free again
            assertThat(broker.budget.acquire(0)).isTrue();
            assertThat(broker.budget.acquire(0)).isTrue();
            subscription.stop();
            subscription.drain(System.nanoTime());
        }
    }
}
