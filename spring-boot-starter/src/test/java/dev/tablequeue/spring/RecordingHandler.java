package dev.tablequeue.spring;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;

/**
 * The suite's handler bean: records the jobs it handled; a job named {@code slow..} waits, once started, until
 * the test releases it, and one named {@code fatal..} throws an {@link Error}.
 */
class RecordingHandler implements QueueHandler<Job> {
    private final InboxQueue<Record> queue;
    final List<String> handled = new CopyOnWriteArrayList<>();
    final CountDownLatch slowStarted = new CountDownLatch(1);
    final CountDownLatch releaseSlow = new CountDownLatch(1);

    RecordingHandler(InboxQueue<Record> queue) {
        this.queue = queue;
    }

    @Override
    public InboxQueue<?> queue() {
        return queue;
    }

    @Override
    public void configure(Mount<Job> mount) {
        mount.workers(2);     // tablequeue.queues.jobs.workers wins over this
    }

    @Override
    public Outcome handle(Job job, Delivery delivery) throws InterruptedException {
        if (job.name().startsWith("slow")) {
            slowStarted.countDown();
            if (!releaseSlow.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never released " + job.name());
            }
        }
        if (job.name().startsWith("fatal")) {
            throw new Error("a fatal failure while handling " + job.name());
        }
        handled.add(job.name());
        return Outcome.ack();
    }
}
