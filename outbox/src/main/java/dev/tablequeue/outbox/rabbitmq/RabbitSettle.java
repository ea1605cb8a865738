package dev.tablequeue.outbox.rabbitmq;

import com.rabbitmq.client.Channel;
import dev.tablequeue.broker.Outcome;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers RabbitMQ for one delivery. A channel that closed meanwhile takes no answer: the broker gives the
 * message again once the connection recovers.
 */
final class RabbitSettle {
    private static final Logger LOG = LoggerFactory.getLogger(RabbitSettle.class);

    private final Channel channel;
    private final RabbitDelivery delivery;
    private final ScheduledExecutorService delays;

    RabbitSettle(Channel channel, RabbitDelivery delivery, ScheduledExecutorService delays) {
        this.channel = channel;
        this.delivery = delivery;
        this.delays = delays;
    }

    void settle(Outcome outcome) {
        switch (outcome) {
            case Outcome.Ack a -> answer("ack", () -> channel.basicAck(delivery.tag(), false));
            // discarded: acknowledged, so no dead-letter exchange takes it (a table broker marks it processed)
            case Outcome.Drop d -> answer("ack", () -> channel.basicAck(delivery.tag(), false));
            // rejected without requeue: the queue's dead-letter exchange takes it, where the queue declares one
            case Outcome.DeadLetter d -> answer("reject", () -> channel.basicReject(delivery.tag(), false));
            case Outcome.Retry r -> answer("nack", () -> channel.basicNack(delivery.tag(), false, true));
            case Outcome.RetryAfter r -> {
                try {
                    delays.schedule(() -> answer("nack", () -> channel.basicNack(delivery.tag(), false, true)),
                            r.delay().toNanos(), TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException closed) {
                    answer("nack", () -> channel.basicNack(delivery.tag(), false, true));
                }
            }
        }
    }

    private interface Answer {
        void send() throws Exception;
    }

    private void answer(String what, Answer answer) {
        try {
            synchronized (channel) {
                answer.send();
            }
        } catch (Exception e) {
            LOG.warn("the {} of {} did not reach RabbitMQ; it delivers the message again: {}", what, delivery,
                    e.toString());
        }
    }
}
