package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sqlite.BusyHandler;

/** The transactions SQLite's dialect opens: an explicit BEGIN in the binding's mode, IMMEDIATE by default. */
class SqliteTransactionIT {
    private static final SqliteDialect DIALECT = SqliteQueues.DIALECT;
    private static final QueueTable<OffsetDateTime> T = new QueueTable<>("counter", SqliteQueues.TIME);

    private static RoleBinding<Record> binding(SqliteMode mode) {
        RoleBinding.Builder<Record> b = RoleBinding.of(T, T.ID).lease(T.LOCKED_UNTIL);
        return mode == null ? b.build() : b.sqliteMode(mode).build();
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long count(Connection c) throws SQLException {
        try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT n FROM counter")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SqliteMode.class)
    void every_mode_opens_a_transaction_that_commits_rolls_back_and_keeps_savepoints(SqliteMode mode)
            throws Exception {
        try (SqliteQueues queues = new SqliteQueues("sqlite_mode_" + mode)) {
            queues.db.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER, locked_until TEXT)",
                    "INSERT INTO counter (n) VALUES (0)");
            TransactionOpening opening = DIALECT.transactionOpening(binding(mode));
            assertThat(opening.explicit()).isTrue();
            try (Connection c = queues.connect()) {
                assertThat(c.getAutoCommit()).isTrue();
                exec(c, opening.sql().orElseThrow());
                exec(c, "UPDATE counter SET n = n + 1");
                exec(c, "SAVEPOINT tq_delivery");
                exec(c, "UPDATE counter SET n = n + 10");
                exec(c, "ROLLBACK TO SAVEPOINT tq_delivery");
                exec(c, "COMMIT");
                assertThat(count(c)).isEqualTo(1);

                exec(c, opening.sql().orElseThrow());
                exec(c, "UPDATE counter SET n = n + 1");
                exec(c, "ROLLBACK");
                assertThat(count(c)).isEqualTo(1);
            }
        }
    }

    /**
     * Why IMMEDIATE is the default: a deferred transaction that reads, then writes after another writer
     * committed, fails at once with SQLITE_BUSY (in WAL mode, BUSY_SNAPSHOT); the busy timeout does not help.
     */
    @Test
    void a_deferred_transaction_that_read_before_another_writer_committed_cannot_write() throws Exception {
        try (SqliteQueues queues = new SqliteQueues("sqlite_deferred")) {
            queues.db.execute("PRAGMA journal_mode = WAL",
                    "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER, locked_until TEXT)",
                    "INSERT INTO counter (n) VALUES (0)");
            try (Connection reader = queues.connect(); Connection writer = queues.connect()) {
                exec(reader, DIALECT.transactionOpening(binding(SqliteMode.DEFERRED)).sql().orElseThrow());
                assertThat(count(reader)).isZero();
                exec(writer, "UPDATE counter SET n = n + 1");
                assertThatThrownBy(() -> exec(reader, "UPDATE counter SET n = n + 1"))
                        .isInstanceOf(SQLException.class).hasMessageContaining("SQLITE_BUSY");
                exec(reader, "ROLLBACK");
                assertThat(count(reader)).isEqualTo(1);
            }
        }
    }

    /**
     * The default opening takes the write lock at BEGIN, so a transaction that reads before it writes never
     * has to upgrade: another writer waits its turn in the busy handler instead, and both writes land.
     */
    @ParameterizedTest(name = "journal mode {0}")
    @ValueSource(strings = {"DELETE", "WAL"})
    void under_the_default_opening_a_transaction_that_reads_then_writes_lets_the_other_writer_wait(String journal)
            throws Exception {
        try (SqliteQueues queues = new SqliteQueues("sqlite_immediate_" + journal)) {
            queues.db.execute("PRAGMA journal_mode = " + journal,
                    "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER, locked_until TEXT)",
                    "INSERT INTO counter (n) VALUES (0)");
            TransactionOpening opening = DIALECT.transactionOpening(binding(null));
            assertThat(opening.sql()).contains("BEGIN IMMEDIATE");
            CountDownLatch otherWaits = new CountDownLatch(1);
            CountDownLatch committed = new CountDownLatch(1);
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try (Connection tx = queues.connect(); Connection other = queues.connect()) {
                BusyHandler.setHandler(other, new BusyHandler() {
                    @Override
                    protected int callback(int attempts) {
                        otherWaits.countDown();
                        try {
                            return committed.await(10, TimeUnit.SECONDS) ? 1 : 0;
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return 0;
                        }
                    }
                });
                exec(tx, opening.sql().orElseThrow());
                long read = count(tx);
                Future<?> write = thread.submit(() -> {
                    exec(other, "UPDATE counter SET n = n + 1");
                    return null;
                });
                assertThat(otherWaits.await(10, TimeUnit.SECONDS)).as("the other writer waits").isTrue();
                exec(tx, "UPDATE counter SET n = " + (read + 1));
                exec(tx, "COMMIT");
                committed.countDown();
                write.get(10, TimeUnit.SECONDS);
                assertThat(count(tx)).isEqualTo(2);
            } finally {
                committed.countDown();
                thread.shutdownNow();
            }
        }
    }
}
