package dev.tablequeue.spring;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.test.Engine;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The handler suite's application: a transactional handler bean on queue {@code ledger} of the job table that
 * calls a {@code @Transactional} service, beside the outbox suite's beans. Nothing in it binds the delivery's
 * transaction to Spring's: the starter does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(OutboxTestApp.class)
class HandlerTestApp {

    @Bean
    JobTable jobTable(@Value("${test.engine}") Engine engine) {
        return new JobTable(engine);
    }

    @Bean
    InboxQueue<Record> ledgerQueue(JobTable table) {
        return InboxQueue.of(table.binding(), "ledger");
    }

    @Bean
    LedgerService ledgerService(JdbcTemplate jdbc, DSLContext dsl) {
        return new LedgerService(jdbc, dsl);
    }

    @Bean
    LedgerHandler ledgerHandler(InboxQueue<Record> ledgerQueue, LedgerService ledger, MemoryBroker memory,
            DSLContext dsl) {
        return new LedgerHandler(ledgerQueue, ledger, memory, dsl);
    }
}
