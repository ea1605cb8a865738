package dev.tablequeue.broker;

import java.time.Duration;
import java.util.Objects;
import org.jooq.Record;
import org.jooq.Table;

/**
 * The settings of one subscription, then its handler. Settings are checked when the broker starts: a
 * declaration its table cannot carry stops {@link QueueBroker#start()} with a
 * {@link dev.tablequeue.DeclarationException}.
 *
 * @param <T> what the handler takes: the decoded payload, or the row
 */
public final class Mount<T> {
    final QueueBroker broker;
    final InboxQueue<? extends Record> queue;
    final Class<T> payloadType;
    final boolean rows;
    int workers = 1;
    /** Whether the rows of one partition key run one at a time, in id order ({@link #workersByKey}). */
    boolean byKey;
    boolean transactional;
    /** The most rows one claim takes for one handler ({@link #batch}); 0 for a handler per row. */
    int batch;
    /** The handler of a batch subscription. */
    BatchHandler<T> batchHandler;
    /** The platform threads the handlers run on ({@link #onThreads}); 0 for a virtual thread each. */
    int threads;
    int maxAttempts;
    String deadLetterGroup;
    Table<?> deadLetterTable;
    Duration lease;
    Duration pollInterval;
    FailurePolicy onDecodeFailure = FailurePolicy.deadLetterOrDrop();
    FailurePolicy onHandlerFailure = FailurePolicy.backoff();

    /** The name a by-name subscription was opened by ({@link QueueBroker#subscribe(String)}); else null. */
    final String byName;

    Mount(QueueBroker broker, InboxQueue<? extends Record> queue, Class<T> payloadType, boolean rows) {
        this(broker, queue, payloadType, rows, null);
    }

    Mount(QueueBroker broker, InboxQueue<? extends Record> queue, Class<T> payloadType, boolean rows, String byName) {
        this.byName = byName;
        this.broker = broker;
        this.queue = queue;
        this.payloadType = payloadType;
        this.rows = rows;
    }

    /**
     * How many deliveries run at once; one claim takes rows for every worker that is free. Each handler runs
     * on a virtual thread of its own; with one worker (1, the default), and neither {@link #onThreads} nor
     * {@link #transactional}, on the subscription's claim thread, once the claim has ended.
     */
    public Mount<T> workers(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + n + " (" + queue + ")");
        }
        this.workers = n;
        return this;
    }

    /**
     * Up to {@code n} deliveries at once, each of a different partition key: a key's rows run one at a time,
     * in id order (the order they were published in, by one publisher), while other keys' rows run beside
     * them, on this broker and on every other one subscribed to the queue. A claim takes a row only where no
     * unfinished row of its group and key has a smaller id, so a row that is retried holds its key until it
     * comes due and runs again, and the key's next row waits for it. Rows whose key is NULL are not ordered.
     * The table needs a partition key column; not with a FIFO group (which already runs one row of the group
     * at a time) or the service's own claim. An index on (group, partition key, id) over the unfinished rows
     * keeps the claim's check cheap.
     */
    public Mount<T> workersByKey(int n) {
        workers(n);
        this.byKey = true;
        return this;
    }

    /**
     * Runs the handlers on {@code n} platform threads of the subscription's own instead of a virtual thread
     * each: for handlers that compute rather than wait (a virtual thread that computes keeps its carrier
     * thread from the others). Deliveries beyond {@code n} in work wait for a thread, holding what their form
     * holds, so {@code workers(n)} is the natural match. The threads end when the broker closes. Without it, a
     * {@link #transactional()} subscription on a database that takes one writer at a time (SQLite) runs its
     * handlers on a platform thread per worker: each delivery's transaction opens on its handler's thread and
     * may wait for the write lock inside the driver's native code, where a virtual thread would hold its carrier.
     */
    public Mount<T> onThreads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("onThreads must be at least 1, was " + n + " (" + queue + ")");
        }
        this.threads = n;
        return this;
    }

    /**
     * Caps the deliveries of a row: the failure of delivery number {@code n} moves the row to the dead letter
     * instead of retrying it. Declared with {@link #deadLetter} or {@link #deadLetterTable}, on a table with an
     * attempt column.
     */
    public Mount<T> maxAttempts(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + n + " (" + queue + ")");
        }
        this.maxAttempts = n;
        return this;
    }

    /** Moves a row whose attempts are spent into group {@code group} of the same table. */
    public Mount<T> deadLetter(String group) {
        this.deadLetterGroup = Objects.requireNonNull(group, "group");
        return this;
    }

    /** Moves a row whose attempts are spent into {@code table}, which has the same columns. */
    public Mount<T> deadLetterTable(Table<?> table) {
        this.deadLetterTable = Objects.requireNonNull(table, "table");
        return this;
    }

    /** The lease of this subscription's deliveries (lease form); whole seconds, at least one, rounded up. */
    public Mount<T> lease(Duration lease) {
        this.lease = Objects.requireNonNull(lease, "lease");
        return this;
    }

    /** How long an idle worker waits before it claims again, unless a publish or notification wakes it. */
    public Mount<T> pollInterval(Duration interval) {
        this.pollInterval = Objects.requireNonNull(interval, "interval");
        return this;
    }

    /**
     * How a row that does not decode is settled (default: {@link FailurePolicy#deadLetterOrDrop()}, moved to
     * the dead letter where one is declared, dropped otherwise). Each such row is logged as an error.
     */
    public Mount<T> onDecodeFailure(FailurePolicy policy) {
        this.onDecodeFailure = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * How a delivery whose handler threw is settled (default: {@link FailurePolicy#backoff()}, a delayed
     * retry counted toward the cap).
     */
    public Mount<T> onHandlerFailure(FailurePolicy policy) {
        this.onHandlerFailure = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Transactional mode: each delivery's handler writes through the delivery's own transaction,
     * {@link Delivery#tx()}, opened at the binding's isolation level or SQLite mode, and the acknowledgement
     * commits those writes together with the row's settlement. Any other outcome, a thrown exception and a row
     * that does not decode roll them back first, then settle the row as without this step. In the row lock
     * form the transaction is the claim's (each claim then takes one row, and a savepoint after it keeps the
     * lock where the writes roll back); in the lease form one of its own per delivery, on a connection the
     * delivery holds while its handler runs; in the advisory form one on the connection that holds the row's
     * key. Refused when the broker starts where the database cannot keep it, naming the reason.
     */
    public Mount<T> transactional() {
        this.transactional = true;
        return this;
    }

    /** Mounts {@code handler}; the subscription opens when the broker starts. */
    public void handle(Handler<T> handler) {
        broker.mount(this, Objects.requireNonNull(handler, "handler"));
    }

    /**
     * Batches: one claim takes up to {@code n} rows for one handler, which takes them as a {@code List}
     * ({@link Batch#handle}); each free worker's claim is a batch of its own. In the row lock form a batch
     * shares its claim's transaction, which commits once every row is settled, and a settlement that fails
     * rolls the batch back (its rows return, the other settlements fail with
     * {@link dev.tablequeue.BatchRolledBackException}); in the lease form each row settles on its own; in the
     * advisory form each row holds its key on a connection of its own, so a batch takes as many rows as the
     * pool can spare connections at once. Set the other settings first: this is the last step before the
     * handler. Not with {@link #transactional()}, which {@code start()} refuses.
     */
    public Batch<T> batch(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("batch must be at least 1, was " + n + " (" + queue + ")");
        }
        this.batch = n;
        return new Batch<>(this);
    }

    /** The last step of a batch subscription: its handler. */
    public static final class Batch<T> {
        private final Mount<T> mount;

        private Batch(Mount<T> mount) {
            this.mount = mount;
        }

        /** Mounts {@code handler}; the subscription opens when the broker starts. */
        public void handle(BatchHandler<T> handler) {
            mount.batchHandler = Objects.requireNonNull(handler, "handler");
            mount.broker.mount(mount, (message, delivery) -> {
                throw new IllegalStateException("the rows of a batch subscription go to its batch handler");
            });
        }
    }
}
