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
import java.util.Map;
import java.util.stream.Collectors;
import org.jooq.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * On SQLite, whose driver compiles a statement each time it is prepared, the runtime keeps its prepared
 * statements on each connection of a HikariCP pool and runs them again; a data source that is no HikariCP pool
 * (a wrapper of the service's own) sees each statement prepared, as before.
 */
class SqliteKeptStatementsIT extends BrokerFixture {
    private static final int ROWS = 200;
    private static final int CONNECTIONS = 4;

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }

    @ParameterizedTest
    @MethodSource("forms")
    void each_statement_is_prepared_once_per_connection_of_a_hikari_pool(Form form) {
        Jobs t = newTable();
        CountingConnections counting = new CountingConnections(pool, CountingConnections.acknowledgementOf(t.getName()));
        HikariConfig config = new HikariConfig();
        // the pool lends connections of the counting data source, which sees what is prepared on them
        config.setDataSource(counting);
        config.setMaximumPoolSize(CONNECTIONS);
        config.setPoolName("kept-statements-" + t.getName());
        try (HikariDataSource outer = new HikariDataSource(config)) {
            handleAll(t, form, outer);
        }
        assertThat(counting.count()).isGreaterThanOrEqualTo(ROWS / 10);
        // one statement per number of rows an acknowledgement names, each prepared at most once per connection
        Map<String, Long> preparedTimes = counting.prepared.stream()
                .collect(Collectors.groupingBy(sql -> sql, Collectors.counting()));
        assertThat(preparedTimes.values()).allSatisfy(times -> assertThat(times).isLessThanOrEqualTo(CONNECTIONS));
        assertThat(counting.prepared).hasSizeLessThan(counting.count());
    }

    @ParameterizedTest
    @MethodSource("forms")
    void a_data_source_that_is_no_hikari_pool_sees_each_statement_prepared(Form form) {
        Jobs t = newTable();
        CountingConnections counting = new CountingConnections(pool, CountingConnections.acknowledgementOf(t.getName()));
        handleAll(t, form, counting);
        assertThat(counting.count()).isGreaterThanOrEqualTo(ROWS / 10);
        // prepared at each use: about once per row
        assertThat(counting.prepared).hasSizeGreaterThanOrEqualTo(ROWS / 2);
    }

    private void handleAll(Jobs t, Form form, javax.sql.DataSource dataSource) {
        RoleBinding<Record> b = binding(t, form);
        QueueBroker.Builder builder = database().broker(dataSource).clock(clock).pollInterval(POLL);
        if (!(dataSource instanceof HikariDataSource)) {
            builder.poolSize(12);
        }
        QueueBroker broker = builder.build();
        brokers.add(broker);
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        insertMany(t, "emails", ROWS);
        awaitCount(t, "processed_at is not null", ROWS);
        broker.close();
    }
}
