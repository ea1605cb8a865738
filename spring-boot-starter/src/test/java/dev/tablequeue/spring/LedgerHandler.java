package dev.tablequeue.spring;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.outbox.memory.MemoryBroker;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;

/**
 * The handler suite's transactional handler bean. Its first call for a job calls {@link LedgerService} and
 * answers as the job's name says; every later call acknowledges and writes nothing:
 * <ul>
 *   <li>{@code ack-..}: records, acknowledges;
 *   <li>{@code retry-..}: records, answers {@link Outcome#retry()};
 *   <li>{@code throw-..}: records, throws;
 *   <li>{@code catch-..}: calls a recording that fails, catches its failure, acknowledges;
 *   <li>{@code publish-..} / {@code publish-retry-..}: records and publishes an {@code order-events} message
 *       through the outbox, acknowledges / retries; {@code publish-dsl-..} the same, with Boot's
 *       {@code DSLContext} as the publish's context;
 *   <li>{@code kill-..}: records, hands the test its transaction's server process and waits for the test to
 *       let it go, acknowledges.
 * </ul>
 */
class LedgerHandler implements QueueHandler<Job> {
    private final InboxQueue<?> queue;
    private final LedgerService ledger;
    private final MemoryBroker memory;
    private final DSLContext dsl;
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    /** Each call, as {@code name#n}. */
    final List<String> called = new CopyOnWriteArrayList<>();
    final CompletableFuture<Integer> killPid = new CompletableFuture<>();
    final CountDownLatch killed = new CountDownLatch(1);

    LedgerHandler(InboxQueue<?> queue, LedgerService ledger, MemoryBroker memory, DSLContext dsl) {
        this.dsl = dsl;
        this.queue = queue;
        this.ledger = ledger;
        this.memory = memory;
    }

    @Override
    public InboxQueue<?> queue() {
        return queue;
    }

    @Override
    public void configure(Mount<Job> mount) {
        mount.transactional().onHandlerFailure(FailurePolicy.retry());
    }

    @Override
    public Outcome handle(Job job, Delivery delivery) throws Exception {
        String name = job.name();
        int n = calls.computeIfAbsent(name, x -> new AtomicInteger()).incrementAndGet();
        try {
            if (n > 1) {
                return Outcome.ack();
            }
            if (name.startsWith("catch-")) {
                try {
                    ledger.recordThenFail(name);
                } catch (IllegalStateException expected) {
                    // the handler carries on, as if the failure did not matter
                }
                return Outcome.ack();
            }
            ledger.record(name);
            if (name.startsWith("publish-")) {
                if (name.startsWith("publish-dsl-")) {
                    memory.publish(dsl, OutboxTestApp.ORDER_EVENTS, name);
                } else {
                    memory.publish(OutboxTestApp.ORDER_EVENTS, name);
                }
                return name.contains("retry-") ? Outcome.retry() : Outcome.ack();
            }
            if (name.startsWith("retry-")) {
                return Outcome.retry();
            }
            if (name.startsWith("throw-")) {
                throw new IllegalStateException("handling " + name + " failed");
            }
            if (name.startsWith("kill-")) {
                killPid.complete(ledger.backendPid());
                if (!killed.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never killed the transaction of " + name);
                }
            }
            return Outcome.ack();
        } finally {
            called.add(name + "#" + n);
        }
    }
}
