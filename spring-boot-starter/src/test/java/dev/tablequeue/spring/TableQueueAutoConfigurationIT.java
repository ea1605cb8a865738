package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.micrometer.TableQueueMetrics;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** When the auto-configuration configures what, on an embedded SQLite database. */
class TableQueueAutoConfigurationIT {
    private FreshDatabase db;
    private ApplicationContextRunner runner;

    @BeforeEach
    void database() {
        db = FreshDatabase.create(Engine.SQLITE, "spring_autoconfiguration");
        // a pool per context: the context closes its DataSource bean
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(TableQueueAutoConfiguration.class))
                .withBean(DataSource.class, () -> db.pool(3));
    }

    @AfterEach
    void drop() {
        db.close();
    }

    @Test
    void a_data_source_gets_a_started_broker_a_publisher_and_a_health_indicator() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(QueueBroker.class).hasSingleBean(TransactionalPublisher.class)
                    .hasSingleBean(TableQueueLifecycle.class).hasSingleBean(TableQueueHealthIndicator.class)
                    .doesNotHaveBean(TableQueueMetrics.class);
            assertThat(context.getBean(QueueBroker.class).isRunning()).isTrue();
        });
    }

    @Test
    void without_a_data_source_nothing_is_configured() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(TableQueueAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(QueueBroker.class)
                        .doesNotHaveBean(TableQueueLifecycle.class));
    }

    @Test
    void tablequeue_enabled_false_turns_the_starter_off() {
        runner.withPropertyValues("tablequeue.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(QueueBroker.class));
    }

    @Test
    void without_boots_health_module_there_is_no_health_indicator_and_the_broker_still_runs() {
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context).hasSingleBean(QueueBroker.class).doesNotHaveBean(TableQueueHealthIndicator.class);
            assertThat(context.getBean(QueueBroker.class).isRunning()).isTrue();
        });
    }

    @Test
    void management_health_tablequeue_enabled_false_turns_the_health_indicator_off() {
        runner.withPropertyValues("management.health.tablequeue.enabled=false")
                .run(context -> assertThat(context).hasSingleBean(QueueBroker.class)
                        .doesNotHaveBean(TableQueueHealthIndicator.class));
    }

    @Test
    void a_meter_registry_gets_the_brokers_meters_and_tablequeue_micrometer_off_the_class_path_none() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(TableQueueMetrics.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withClassLoader(new FilteredClassLoader(TableQueueMetrics.class))
                .run(context -> assertThat(context).doesNotHaveBean(TableQueueMetrics.class)
                        .hasSingleBean(QueueBroker.class));
    }

    @Test
    void a_setting_out_of_range_fails_the_start_naming_the_setting() {
        runner.withPropertyValues("tablequeue.workers=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("tablequeue.workers must be at least 1");
        });
    }
}
