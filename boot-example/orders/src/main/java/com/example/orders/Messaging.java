package com.example.orders;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.kafka.KafkaTransport;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outbox and the two transports the service's events leave by. Both transports run the outbox's publish
 * middleware, so every publish of a registered name is first written to {@code order_events} in the caller's
 * transaction, and sent once it commits.
 */
@Configuration(proxyBeanMethods = false)
class Messaging {
    private static final Logger LOG = LoggerFactory.getLogger(Messaging.class);

    /** The outbox, on Boot's DataSource (the one Spring's transaction manager uses). */
    @Bean(destroyMethod = "close")
    Outbox outbox(DataSource dataSource, @Value("${orders.mails-queue}") String mailsQueue) {
        return Outbox.builder(dataSource)
                .register(Queues.ORDER_PLACED, Queues.ORDER_EVENTS_OUTBOX)
                .register(mailsQueue, Queues.ORDER_EVENTS_OUTBOX)
                // what a broker did not confirm (it was down; the service died before the mark) is sent again
                .republishAfter(Duration.ofMinutes(1))
                .republishEvery(Duration.ofSeconds(30))
                .build();
    }

    /** Order events to Kafka: idempotent producer, acks=all, a record done on the broker's acknowledgement. */
    @Bean(destroyMethod = "close")
    KafkaTransport kafka(Outbox outbox, @Value("${orders.kafka.bootstrap-servers}") String bootstrap) {
        return KafkaTransport.builder(bootstrap).publishMiddleware(outbox.publishMiddleware()).build();
    }

    /** Order mails to RabbitMQ: publisher confirms, a record done on the broker's confirm. */
    @Bean(destroyMethod = "close")
    RabbitTransport rabbit(Outbox outbox,
            @Value("${orders.rabbitmq.host}") String host, @Value("${orders.rabbitmq.port}") int port,
            @Value("${orders.rabbitmq.username}") String username,
            @Value("${orders.rabbitmq.password}") String password,
            @Value("${orders.mails-queue}") String mailsQueue) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        factory.setUsername(username);
        factory.setPassword(password);
        RabbitTransport rabbit = RabbitTransport.builder(factory)
                .connectionName("orders")
                .publishMiddleware(outbox.publishMiddleware())
                .build();
        // the service's topology: the durable queue its mails go to (the default exchange routes by its name)
        try (Channel channel = rabbit.connection().createChannel()) {
            channel.queueDeclare(mailsQueue, true, false, false, null);
        }
        return rabbit;
    }

    /**
     * Once the context is up: the republish of what was not confirmed before the last stop, then the periodic
     * one; each name goes back to the transport it is published on.
     */
    @Bean
    ApplicationRunner outboxStart(Outbox outbox, KafkaTransport kafka, RabbitTransport rabbit) {
        return args -> {
            outbox.start((name, payload, headers) -> {
                if (name.equals(Queues.ORDER_PLACED)) {
                    kafka.send(name, payload, headers);
                } else {
                    rabbit.send(name, payload, headers);
                }
            });
            LOG.info("outbox started on Kafka and RabbitMQ");
        };
    }

    /** The ledger invoices are posted to; a real service calls its accounting system here. */
    @Bean
    Ledger ledger() {
        return (orderId, amountCents) -> LOG.info("invoice of order {} ({} cents) posted", orderId, amountCents);
    }
}
