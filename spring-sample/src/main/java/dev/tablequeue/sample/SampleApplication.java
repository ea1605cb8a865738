package dev.tablequeue.sample;

import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.memory.MemoryBroker;
import javax.sql.DataSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A service that signs users up and sends each a welcome mail through a queue in its own database: the
 * account, its welcome job and its {@link AccountCreated} event's outbox record commit together
 * ({@link Signups}), the event is sent to other services after the commit, and {@link WelcomeMails}, a
 * transactional handler, sends the mail and has {@link SentMails} record it in the delivery's transaction. The
 * starter builds the broker from Boot's DataSource, starts and drains it with the context, and lets the
 * outbox and the handler join Spring's transactions: nothing here bridges them.
 */
@SpringBootApplication
public class SampleApplication {

    /** Runs the service until it is stopped. */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }

    /** The mail server; a real service sends the mail here. */
    @Bean
    Mailer mailer() {
        return new LoggingMailer();
    }

    /** The outbox: account events are recorded in {@code account_events} before they are sent. */
    @Bean
    Outbox outbox(DataSource dataSource) {
        return Outbox.builder(dataSource).register(Queues.ACCOUNT_CREATED, Queues.ACCOUNT_EVENTS_OUTBOX).build();
    }

    /**
     * The transport account events leave the service by: an in-memory broker, to keep the sample self-contained;
     * a service uses {@code RabbitTransport} (or another transport of {@code tablequeue-outbox}) the same way.
     */
    @Bean(destroyMethod = "close")
    MemoryBroker accountEvents(Outbox outbox) {
        return MemoryBroker.builder().publishMiddleware(outbox.publishMiddleware()).build();
    }
}
