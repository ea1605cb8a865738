package dev.tablequeue.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A service that signs users up and sends each a welcome mail through a queue in its own database: the
 * account and its welcome job commit together ({@link Signups}), and {@link WelcomeMails} sends the mail.
 * The starter builds the broker from Boot's DataSource and starts and drains it with the context.
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
}
