package dev.tablequeue.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.OutcomeUnknownException;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * What the listener counts from signals a live broker gives only under faults (the live suite's MetricsContract
 * covers the rest): an outcome whose commit was cut off is counted apart from the failed ones.
 */
class TableQueueMetricsTest {

    @Test
    void an_outcome_whose_commit_is_unknown_is_counted_apart_from_the_failed_ones() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build();
        Delivery delivery = new Row(7L);

        metrics.settlementUnknown(delivery, Outcome.ack(), new OutcomeUnknownException("cut off", "jobs", 7L,
                new java.sql.SQLException("connection reset")));
        metrics.settlementUnknown(delivery, Outcome.ack(), new OutcomeUnknownException("cut off", "jobs", 7L,
                new java.sql.SQLException("connection reset")));

        assertThat(registry.get("tablequeue.deliveries.settlement.unknown").tag("table", "jobs")
                .tag("queue", "emails").counter().count()).isEqualTo(2);
        assertThat(registry.get("tablequeue.deliveries.settlement.failures").tag("table", "jobs")
                .tag("queue", "emails").counter().count()).isZero();
    }

    /** A delivery of queue "emails" of table "jobs". */
    private record Row(Object id) implements Delivery {
        @Override
        public String queue() {
            return "emails";
        }

        @Override
        public String table() {
            return "jobs";
        }

        @Override
        public OptionalInt attempt() {
            return OptionalInt.of(1);
        }

        @Override
        public Map<String, String> headers() {
            return Map.of();
        }

        @Override
        public Object partitionKey() {
            return null;
        }

        @Override
        public DSLContext db() {
            throw new IllegalStateException("no database in this test");
        }
    }
}
