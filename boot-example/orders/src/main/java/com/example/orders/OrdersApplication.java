package com.example.orders;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Takes orders ({@link Orders}), invoices each from a queue in the service's own database ({@link InvoiceOrders},
 * a transactional handler calling the {@code @Transactional} {@link Invoices}), and announces each order on Kafka
 * and on RabbitMQ through the outbox ({@link Messaging}). tablequeue's starter builds the broker on Boot's
 * DataSource, subscribes the handler, and lets every publish and the handler join Spring's transactions.
 */
@SpringBootApplication
public class OrdersApplication {

    /** Runs the service until it is stopped. */
    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }
}
