package dev.tablequeue.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import io.opentelemetry.api.GlobalOpenTelemetry;
import java.time.Duration;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * A service with the OpenTelemetry API alone: the build runs this class with every SDK jar off the classpath
 * (the failsafe execution {@code without-sdk}), on SQLite.
 */
class NoSdkIT {

    @Test
    void without_an_sdk_on_the_classpath_the_global_tracing_writes_no_header_and_leaves_the_global_unset() {
        assertThatThrownBy(() -> Class.forName("io.opentelemetry.sdk.OpenTelemetrySdk"))
                .as("this test runs without the SDK").isInstanceOf(ClassNotFoundException.class);
        try (FreshDatabase database = FreshDatabase.create(Engine.SQLITE, "NoSdkIT");
                HikariDataSource pool = database.pool(4)) {
            database.execute(TraceDatabase.SQLITE.queueTable("trace_jobs", HeaderLayout.COLUMN));
            TraceTable table = new TraceTable("trace_jobs", TraceDatabase.SQLITE.timeType(), HeaderLayout.COLUMN);
            try (TracedQueue q = new TracedQueue(pool, table, TableQueueTracing.global(), d -> Outcome.ack())) {
                q.publish("untraced");
                await().atMost(Duration.ofSeconds(20)).until(() -> q.seen.size() == 1);
                assertThat(q.seen.get(0).span().isValid()).isFalse();
                assertThat(DSL.using(pool, SQLDialect.SQLITE).select(table.HEADERS).from(table).fetchOne(table.HEADERS))
                        .doesNotContain("traceparent");
            }
        }
        assertThat(GlobalOpenTelemetry.isSet()).isFalse();
    }
}
