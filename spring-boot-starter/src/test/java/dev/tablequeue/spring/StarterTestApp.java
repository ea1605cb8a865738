package dev.tablequeue.spring;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The suite's application: the job table of {@code test.engine}, a handler bean on queue {@code test.queue}
 * (default {@code jobs}), a service that publishes, and a meter registry.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class StarterTestApp {

    @Bean
    JobTable jobTable(@Value("${test.engine}") Engine engine) {
        return new JobTable(engine);
    }

    @Bean
    InboxQueue<Record> jobsQueue(JobTable table, @Value("${test.queue:jobs}") String name) {
        return InboxQueue.of(table.binding(), name);
    }

    @Bean
    RecordingHandler recordingHandler(InboxQueue<Record> queue) {
        return new RecordingHandler(queue);
    }

    @Bean
    JobService jobService(TransactionalPublisher publisher, QueueBroker broker, DSLContext dsl,
            InboxQueue<Record> queue) {
        return new JobService(publisher, broker, dsl, queue);
    }

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
