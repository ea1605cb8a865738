package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jooq.Record;

/** What the advisory parts of the dialect contract share: a take after a release that has not committed. */
abstract class AdvisoryFixture extends DialectFixture {

    /** A take of one row's key and row, by the lock and take or the walk: whether it took nothing. */
    @FunctionalInterface
    interface Take {
        boolean tookNothing(ClaimSequence<Map<String, Object>> steps, Connection c, long id) throws Exception;
    }

    /**
     * A row of {@code t} taken and then acknowledged in a transaction that released the row's key (a statement
     * of its own) and has not committed: {@code take} on another session locks the key, waits for the commit,
     * then takes nothing and holds no key; with and without an attempt column. The runtime releases a key when
     * its outcome commits ({@link DialectAdvisoryContract#an_outcome_and_unlock_keeps_the_key_until_the_outcome_commits}); the take's
     * own check covers a row settled after the take's statement began.
     */
    void takeAfterAnUncommittedRelease(Jobs t, Take take) throws Exception {
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            long id = insert(t, r -> r.group("a"));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            var taker = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            try (Connection settler = db.connect(); Connection other = db.connect(); Connection observer = db.connect()) {
                assertThat(take.tookNothing(steps, settler, id)).isFalse();
                // the acknowledgement has released the key and not committed: its commit is still to be seen
                settler.setAutoCommit(false);
                assertThat(settle(settler, b, Kind.ACK, new Binds().id(id).now(now))).isEmpty();
                assertThat(sessionLocks(b).unlock(settler, "q-" + id))
                        .isTrue();
                var taking = taker.submit(() -> take.tookNothing(steps, other, id));
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> taking.isDone() || sessionsWaitingForALock(observer) > 0);
                assertThat(taking.isDone()).as("the take waits for the settlement's commit").isFalse();
                settler.commit();
                assertThat(taking.get(10, java.util.concurrent.TimeUnit.SECONDS)).as("it took nothing").isTrue();
                assertThat(sessionLocks(b).unlock(other, "q-" + id))
                        .as("the take that left the row left its key").isFalse();
            } finally {
                taker.shutdownNow();
            }
        }
    }

    /** The dialect's locks of {@code b}'s keys on the test's database ({@link QueueDialect#keyLocks}). */
    KeyLocks keyLocks(RoleBinding<?> b) throws SQLException {
        try (Connection c = db.connect()) {
            return dialect.keyLocks(b, c);
        }
    }

    /** {@link #keyLocks}, where the database's sessions hold them (the tests that ask for it run only there). */
    KeyLocks sessionLocks(RoleBinding<?> b) throws SQLException {
        KeyLocks locks = keyLocks(b);
        assertThat(locks.inProcess()).as("the sessions of %s hold the locks", database()).isEmpty();
        return locks;
    }

    /** An advisory binding of {@code t} without the attempt role: a take that counts no attempt. */
    static RoleBinding<Record> uncounted(Jobs t) {
        return RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{id}").build();
    }

    /** How many sessions of the server wait for a row lock now. */
    long sessionsWaitingForALock(Connection observer) throws SQLException {
        String sql = switch (database().engine()) {
            case POSTGRES -> "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                    + " and datname = current_database()";
            case MARIADB, MYSQL -> "select count(*) from information_schema.innodb_trx where trx_state = 'LOCK WAIT'";
            case SQLITE -> throw new IllegalStateException("SQLite takes one writer at a time and has no row locks");
        };
        try (PreparedStatement ps = observer.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
