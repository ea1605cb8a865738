package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;

/**
 * Publish-to-handler latency on one table in the row lock form with one worker: a message is published, its
 * handler notes when it starts, and the next message is published after a random pause, so that publishes
 * fall at every point of a poll interval. A sample runs from just before the publish call to the handler's
 * first line, so it holds the publish's insert and commit too.
 *
 * <p>Three ways to learn of a row: LISTEN/NOTIFY, with the publisher in another broker (as in another
 * instance of the service), each broker with {@code listenNotify()} and the subscriber polling only every
 * 10 s; polling alone, the publisher in another broker without notifications; and the in-process wake-up of
 * a publish through the subscriber's own broker.
 */
final class LatencyRun {
    private static final Duration SLOW_POLL = Duration.ofSeconds(10);
    private static final int WARM_UP = 10;

    enum Mode {
        LISTEN_NOTIFY,
        POLLING,
        IN_PROCESS
    }

    private LatencyRun() {}

    static LatencyResult run(BenchDatabase db, Mode mode, int samples, Duration poll) throws Exception {
        BenchTable table = db.newTable();
        RoleBinding<Record> binding = table.binding(Form.ROW_LOCK);
        LinkedBlockingQueue<Long> handled = new LinkedBlockingQueue<>();
        QueueBroker.Builder subscriber = QueueBroker.builder(db.pool())
                .pollInterval(mode == Mode.POLLING ? poll : SLOW_POLL);
        if (mode == Mode.LISTEN_NOTIFY) {
            subscriber.listenNotify();
        }
        QueueBroker consumer = subscriber.build();
        consumer.subscribe(InboxQueue.of(binding, BenchTable.GROUP)).bytes().handle((payload, delivery) -> {
            handled.add(System.nanoTime());
            return Outcome.ack();
        });
        QueueBroker publisher = switch (mode) {
            case LISTEN_NOTIFY -> QueueBroker.builder(db.pool()).listenNotify().build();
            case POLLING -> QueueBroker.builder(db.pool()).build();
            case IN_PROCESS -> consumer;
        };
        long pauseMicros = mode == Mode.POLLING ? poll.toNanos() / 1000 : 20_000;
        List<Double> millis = new ArrayList<>();
        try {
            consumer.start();
            for (int i = 0; i < WARM_UP + samples; i++) {
                // a pause between samples, not a synchronisation: it spreads publishes over the poll interval
                TimeUnit.MICROSECONDS.sleep(ThreadLocalRandom.current().nextLong(pauseMicros + 1));
                long sent = System.nanoTime();
                publisher.publisher().publish(binding, Message.of(BenchTable.GROUP, BenchDatabase.PAYLOAD));
                Long at = handled.poll(SLOW_POLL.toMillis() * 2, TimeUnit.MILLISECONDS);
                if (at == null) {
                    throw new IllegalStateException("message " + i + " was not handled within "
                            + SLOW_POLL.toSeconds() * 2 + " s (" + mode + ")");
                }
                if (i >= WARM_UP) {
                    millis.add((at - sent) / 1e6);
                }
            }
        } finally {
            if (publisher != consumer) {
                publisher.close();
            }
            consumer.close();
            db.drop(table);
        }
        String wakeup = switch (mode) {
            case LISTEN_NOTIFY -> Wakeups.LISTEN_NOTIFY;
            case POLLING -> String.format(Wakeups.POLLING, poll.toMillis());
            case IN_PROCESS -> Wakeups.IN_PROCESS;
        };
        return new LatencyResult(db.engine().label(), wakeup, millis);
    }
}
