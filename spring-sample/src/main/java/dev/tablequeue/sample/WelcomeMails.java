package dev.tablequeue.sample;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.spring.QueueHandler;
import org.springframework.stereotype.Component;

/**
 * Sends the welcome mail of each welcome job; the starter subscribes it because it is a bean. It is
 * transactional: what {@link SentMails} writes commits with the job's acknowledgement, and rolls back with a
 * failed mail.
 */
@Component
class WelcomeMails implements QueueHandler<Welcome> {
    private final Mailer mailer;
    private final SentMails sentMails;

    WelcomeMails(Mailer mailer, SentMails sentMails) {
        this.mailer = mailer;
        this.sentMails = sentMails;
    }

    @Override
    public InboxQueue<?> queue() {
        return Queues.WELCOME;
    }

    @Override
    public void configure(Mount<Welcome> mount) {
        mount.transactional().maxAttempts(5).deadLetter("welcome-dead");
    }

    @Override
    public Outcome handle(Welcome welcome, Delivery delivery) throws Exception {
        mailer.sendWelcome(welcome.email());
        sentMails.record(welcome.email());        // @Transactional: joins the delivery's transaction
        return Outcome.ack();
    }
}
