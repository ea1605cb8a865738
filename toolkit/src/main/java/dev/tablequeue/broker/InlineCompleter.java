package dev.tablequeue.broker;

/**
 * Where the database takes one writer at a time (SQLite): the claim thread writes the queued outcomes itself
 * before each claim, so an outcome reaches the database without a hand-off to another thread and without
 * waiting for the write turn; there is nothing to overlap, and the hand-off to a settle thread cost more
 * than it gave. The outcomes are written as the completer it wraps writes them (lease batches, or each on its
 * key's connection).
 */
final class InlineCompleter implements Completer {

    /** A completer whose writes can be queued for the claim thread. */
    interface Queued extends Completer {
        /** The queue, with no threads of its own, that the claim thread writes. */
        Settler settler();

        /** Queues {@code p}'s write. */
        void queue(Settlement.Pending p);

        /** Queues the writes of a batch's rows, to be written together. */
        default void queueAll(java.util.List<Settlement.Pending> ps) {
            ps.forEach(this::queue);
        }
    }

    private final Queued base;
    private final Settler settler;
    private final Slots slots;
    private final Wakeup wakeup;

    InlineCompleter(Queued base, Slots slots, Wakeup wakeup) {
        this.base = base;
        this.settler = base.settler();
        this.slots = slots;
        this.wakeup = wakeup;
    }

    @Override
    public void complete(Settlement.Pending p) {
        // queued before the worker is free, so the claim thread it wakes finds it
        base.queue(p);
        slots.handled();
        wakeup.wake();
    }

    @Override
    public void completeAll(java.util.List<Settlement.Pending> ps) {
        base.queueAll(ps);
        ps.forEach(p -> slots.handled());
        wakeup.wake();
    }

    /**
     * The handler that freed a worker queued its outcome first: written now, the claim finds its row (a retry)
     * and its key free, where it would otherwise wait for the next poll.
     */
    @Override
    public void beforeClaim() {
        settler.writeQueued();
    }

    /**
     * Writes the outcomes that arrive meanwhile instead: the permits the claim waits for may be held by
     * advisory deliveries whose outcome only this thread writes, and which give their connection back only
     * once it is written.
     */
    @Override
    public boolean awaitPermit(ConnectionBudget budget, long sliceNanos) throws InterruptedException {
        settler.writeArriving(sliceNanos);
        return false;
    }

    /** No claim thread writes them any more: an outcome that comes later is written on its own thread. */
    @Override
    public void claimsEnded() {
        settler.stopAccepting();
    }

    /** What is queued is written here, and each outcome that comes later on its handler's thread. */
    @Override
    public void drainQueued(long deadline) {
        settler.stop(deadline);
    }

    @Override
    public void stop(long deadline) {
        settler.stop(deadline);
    }

    @Override
    public Settlement.Release release(InWork d) {
        return base.release(d);
    }

    @Override
    public void awaitUnderWay(long until) {
        settler.stop(until);
        base.awaitUnderWay(until);
    }
}
