package dev.tablequeue.spring;

import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import org.springframework.core.ResolvableType;

/**
 * A handler declared as a bean: the starter subscribes it to its {@link #queue()} before the broker starts.
 *
 * <pre>{@code
 * @Component
 * class WelcomeEmails implements QueueHandler<Welcome> {
 *     public InboxQueue<?> queue() { return InboxQueue.of(Queues.SIGNUPS, "welcome"); }
 *     public void configure(Mount<Welcome> mount) { mount.maxAttempts(5).deadLetter("welcome-dead"); }
 *     public Outcome handle(Welcome welcome, Delivery delivery) { mailer.send(welcome); return Outcome.ack(); }
 * }
 * }</pre>
 *
 * <p>What the handler takes is its type argument: a class the codec decodes the payload into, {@code byte[]}
 * for the payload as it is, or the table's jOOQ record for the row (row mode).
 *
 * @param <T> what the handler takes
 */
public interface QueueHandler<T> extends Handler<T> {

    /** The queue this handler serves: a binding and the queue's name (its group, where the table has one). */
    InboxQueue<?> queue();

    /**
     * Sets what {@code tablequeue.*} does not: max attempts, a dead letter, failure policies. It runs after
     * {@code tablequeue.workers} is applied and before {@code tablequeue.queues.<name>.*}, so the settings of
     * the application's configuration win.
     */
    default void configure(Mount<T> mount) {}

    /**
     * What the handler takes: by default the type argument of the handler's class. Override it where that
     * class does not name one.
     *
     * @throws IllegalStateException where the class does not name it
     */
    @SuppressWarnings("unchecked")
    default Class<T> messageType() {
        Class<?> type = ResolvableType.forClass(QueueHandler.class, getClass()).getGeneric(0).resolve();
        if (type == null) {
            throw new IllegalStateException("the handler " + getClass().getName() + " of queue " + queue()
                    + " does not name what it takes as the type argument of QueueHandler: implement"
                    + " QueueHandler<YourMessage>, or override messageType()");
        }
        return (Class<T>) type;
    }
}
