package dev.tablequeue.spring;

import dev.tablequeue.broker.AsyncApi;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.outbox.Outbox;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator endpoint {@code asyncapi} ({@link AsyncApiEndpoint}), where Boot's actuator is on the class path;
 * exposed over HTTP like any endpoint, by {@code management.endpoints.web.exposure.include}.
 */
@AutoConfiguration(after = TableQueueAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(QueueBroker.class)
public class TableQueueAsyncApiAutoConfiguration {

    /** The endpoint, titled by {@code spring.application.name}. */
    @Bean
    @ConditionalOnMissingBean
    AsyncApiEndpoint asyncApiEndpoint(QueueBroker broker, ObjectProvider<AsyncApi.Part> parts,
            @Value("${spring.application.name:tablequeue service}") String title,
            @Value("${tablequeue.asyncapi.version:1.0.0}") String version) {
        return new AsyncApiEndpoint(broker, parts.orderedStream().toList(), title, version);
    }

    /** The outboxes of the context as parts of the document, where the application has the outbox. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Outbox.class)
    static class OutboxParts {

        @Bean
        AsyncApi.Part tableQueueOutboxAsyncApi(ObjectProvider<Outbox> outboxes) {
            return document -> outboxes.orderedStream().forEach(outbox -> document.with(outbox.asyncApi()));
        }
    }
}
