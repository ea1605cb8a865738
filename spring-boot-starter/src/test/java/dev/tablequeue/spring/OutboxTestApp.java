package dev.tablequeue.spring;

import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.memory.MemoryBroker;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox suite's application, as a service writes it: an {@link Outbox} tracking {@code order-events} in
 * {@link OrderOutboxTable}, an in-memory transport that mounts its publish middleware (and, inside it, a
 * {@link SentLog} that sees each send), and a service that publishes in Spring's transactions. Nothing in it
 * bridges Spring's transactions to the outbox: the starter does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class OutboxTestApp {
    static final String ORDER_EVENTS = "order-events";

    @Bean
    OrderOutboxTable orderOutboxTable() {
        return new OrderOutboxTable();
    }

    @Bean
    Outbox outbox(DataSource dataSource, OrderOutboxTable table) {
        return Outbox.builder(dataSource).register(ORDER_EVENTS, table.binding()).build();
    }

    @Bean
    SentLog sentLog(DataSource dataSource, OrderOutboxTable table) {
        return new SentLog(dataSource, table);
    }

    @Bean(destroyMethod = "close")
    MemoryBroker memoryBroker(Outbox outbox, SentLog sent) {
        return MemoryBroker.builder().publishMiddleware(outbox.publishMiddleware()).publishMiddleware(sent).build();
    }

    @Bean
    OrderService orderService(MemoryBroker memory, DSLContext dsl, TransactionTemplate transactions,
            OrderOutboxTable table, SentLog sent, DataSource dataSource) {
        return new OrderService(memory, dsl, transactions, table, sent, dataSource);
    }
}
