package dev.tablequeue.spring;

import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.micrometer.TableQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link QueueBroker} on the application's {@link DataSource}, with {@code tablequeue.*}'s settings, every
 * {@link BrokerListener} bean as its listener and every {@link QueueBrokerCustomizer} bean applied; its
 * {@link TableQueueLifecycle} subscribes the {@link QueueHandler} beans and starts and stops it with the
 * context; a {@link TransactionalPublisher} publishes in the caller's Spring transaction; a transactional
 * subscription's handler runs with its delivery's transaction bound to Spring's ({@code SpringHandlerScope}).
 * Where Boot's health module is present, a {@link TableQueueHealthIndicator} ({@code tablequeue}); where a
 * {@link MeterRegistry} bean and {@code tablequeue-micrometer} are, the broker's {@link TableQueueMetrics}.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
    "org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(QueueBroker.class)
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnProperty(prefix = "tablequeue", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(TableQueueProperties.class)
public class TableQueueAutoConfiguration {

    /** Remembers the subscriptions a handler's {@link Error} stopped, for the health indicator. */
    @Bean
    @ConditionalOnMissingBean
    public SubscriptionWatch tableQueueSubscriptionWatch() {
        return new SubscriptionWatch();
    }

    /**
     * The broker, built (its dialect detected on a connection of {@code dataSource}) and not started: the
     * lifecycle subscribes the handlers and starts it with the context. Where the application has one jOOQ
     * {@link DSLContext} (Boot's jOOQ auto-configuration), the broker renders table names through its settings,
     * so the render mapping the application's own queries use serves the bindings too.
     */
    @Bean
    @ConditionalOnMissingBean
    public QueueBroker tableQueueBroker(DataSource dataSource, TableQueueProperties properties,
            ObjectProvider<BrokerListener> listeners, ObjectProvider<QueueBrokerCustomizer> customizers,
            ObjectProvider<DSLContext> jooq) {
        QueueBroker.Builder builder = QueueBroker.builder(dataSource)
                .pollInterval(properties.getPollInterval())
                .lease(properties.getLease())
                .drainTimeout(properties.getDrainTimeout())
                .listener(BrokerListener.all(listeners.orderedStream().toList()))
                .afterCommit(new SpringAfterCommit())
                .handlerScope(new SpringHandlerScope(dataSource));
        if (properties.isListenNotify()) {
            builder.listenNotify();
        }
        if (properties.getPoolSize() != null) {
            builder.poolSize(properties.getPoolSize());
        }
        jooq.ifUnique(dsl -> builder.settings(dsl.settings()));
        customizers.orderedStream().forEach(c -> c.customize(builder));
        return builder.build();
    }

    /** Subscribes the handler beans, then starts the broker with the context and drains it when it stops. */
    @Bean
    @ConditionalOnMissingBean
    public TableQueueLifecycle tableQueueLifecycle(QueueBroker broker, ObjectProvider<QueueHandler<?>> handlers,
            ObjectProvider<QueueBrokerCustomizer> customizers, TableQueueProperties properties) {
        return new TableQueueLifecycle(broker, handlers.orderedStream().toList(), customizers.orderedStream().toList(),
                properties);
    }

    /** Publishes on the connection of the caller's Spring transaction. */
    @Bean
    @ConditionalOnMissingBean
    public TransactionalPublisher tableQueuePublisher(QueueBroker broker, DataSource dataSource) {
        return new TransactionalPublisher(broker, dataSource);
    }

    /** The health indicator, where Boot's health module is present and {@code management.health.tablequeue.enabled}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("tablequeue")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "tablequeueHealthIndicator")
        TableQueueHealthIndicator tablequeueHealthIndicator(QueueBroker broker, SubscriptionWatch watch,
                TableQueueProperties properties) {
            return new TableQueueHealthIndicator(broker, watch, properties.isListenNotify());
        }
    }

    /** The meters, where {@code tablequeue-micrometer} is present and the context has a {@link MeterRegistry}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({TableQueueMetrics.class, MeterRegistry.class})
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        TableQueueMetrics tableQueueMetrics(MeterRegistry registry, TableQueueProperties properties) {
            return TableQueueMetrics.builder(registry).statsEvery(properties.getMetrics().getStatsEvery()).build();
        }

        /** Binds the queue gauges once the handlers are subscribed. */
        @Bean
        QueueBrokerCustomizer tableQueueMetricsBinding(TableQueueMetrics metrics) {
            return new QueueBrokerCustomizer() {
                @Override
                public void subscribed(QueueBroker broker) {
                    metrics.bind(broker);
                }
            };
        }
    }
}
