package dev.tablequeue.sample;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.spring.QueueHandler;
import java.time.Duration;
import org.springframework.stereotype.Component;

/** Sends the welcome mail of each welcome job; the starter subscribes it because it is a bean. */
@Component
class WelcomeMails implements QueueHandler<Welcome> {
    private final Mailer mailer;

    WelcomeMails(Mailer mailer) {
        this.mailer = mailer;
    }

    @Override
    public InboxQueue<?> queue() {
        return Queues.WELCOME;
    }

    @Override
    public void configure(Mount<Welcome> mount) {
        mount.maxAttempts(5).deadLetter("welcome-dead");
    }

    @Override
    public Outcome handle(Welcome welcome, Delivery delivery) throws Exception {
        mailer.sendWelcome(welcome.email());
        return Outcome.ack();
    }
}
