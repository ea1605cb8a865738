package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import org.jooq.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On SQLite, whose driver compiles a statement each time it is prepared, the dialect keeps its prepared statements
 * on each driver connection and the runtime runs them again; on PostgreSQL (pgjdbc keeps the server's prepared
 * statements itself), MySQL and MariaDB each is prepared at its use. Per-database classes name their
 * {@link TestDatabase} and whether it keeps them.
 */
public abstract class KeptStatementsContract extends BrokerFixture {
    private static final int ROWS = 200;
    private static final int CONNECTIONS = 4;

    /** Whether the runtime keeps its statements on this database. */
    protected abstract boolean keeps();

    @ParameterizedTest
    @MethodSource("forms")
    public final void each_statement_is_prepared_once_per_connection_where_they_are_kept_else_at_each_use(
            Form form) {
        Jobs t = newTable();
        CountingConnections counting = new CountingConnections(pool, acknowledgementOf(t));
        HikariConfig config = new HikariConfig();
        // the pool lends connections of the counting data source, which sees what is prepared on them
        config.setDataSource(counting);
        config.setMaximumPoolSize(CONNECTIONS);
        config.setPoolName("kept-statements-" + t.getName());
        try (HikariDataSource outer = new HikariDataSource(config)) {
            handleAll(t, form, outer, counting);
        }
        assertThat(counting.count()).isGreaterThanOrEqualTo(ROWS / 10);
        if (!keeps()) {
            assertThat(counting.prepared).hasSizeGreaterThanOrEqualTo(ROWS / 2);
            return;
        }
        // one statement per number of rows an acknowledgement names, each prepared at most once per connection
        assertThat(counting.preparedOn).doesNotHaveDuplicates();
        assertThat(counting.prepared).hasSizeLessThan(counting.count());
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void statements_are_kept_beneath_a_wrapper_that_hands_over_its_target_and_prepared_at_each_use_elsewhere(
            Form form) {
        Jobs t = newTable();
        // a data source that is no pool, whose connections hand over the pool's beneath them when unwrapped
        CountingConnections counting = CountingConnections.handingOverTarget(pool, acknowledgementOf(t));
        handleAll(t, form, counting, counting);
        if (keeps()) {
            // kept on the driver's connection, beneath the wrapper, which sees none of them prepared
            assertThat(counting.prepared).isEmpty();
            return;
        }
        assertThat(counting.count()).isGreaterThanOrEqualTo(ROWS / 10);
        // prepared at each use: about once per row
        assertThat(counting.prepared).hasSizeGreaterThanOrEqualTo(ROWS / 2);
    }

    /**
     * A statement that acknowledges rows of {@code t}: the dialect's UPDATE (of one row, or of many joined to their
     * bound values), or the advisory form's statement that acknowledges and releases the key in one (it names the
     * UPDATE within).
     */
    private static java.util.function.Predicate<String> acknowledgementOf(Jobs t) {
        return sql -> {
            String plain = CountingConnections.plain(sql);
            // MySQL/MariaDB write many rows' outcomes as UPDATE json_table(..) STRAIGHT_JOIN the table (read by its
            // primary key)
            return plain.contains("update " + t.getName() + " set processed_at = ")
                    || plain.contains("straight_join " + t.getName() + " ") && plain.contains(" set processed_at = ");
        };
    }

    /**
     * Handles {@link #ROWS} rows of {@code t} on a broker of {@code dataSource}; {@code counting} forgets what the
     * start prepared (each statement once, to check it), so that it counts the deliveries' statements alone.
     */
    private void handleAll(Jobs t, Form form, javax.sql.DataSource dataSource, CountingConnections counting) {
        RoleBinding<Record> b = binding(t, form);
        QueueBroker.Builder builder = database().broker(dataSource).clock(clock).pollInterval(POLL);
        if (!(dataSource instanceof HikariDataSource)) {
            builder.poolSize(12);
        }
        QueueBroker broker = builder.build();
        brokers.add(broker);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        counting.prepared.clear();
        counting.preparedOn.clear();
        insertMany(t, "emails", ROWS);
        awaitCount(t, "processed_at is not null", ROWS);
        broker.close();
    }
}
