package dev.tablequeue.broker;

import dev.tablequeue.dialect.QueueDialect;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the database takes one writer at a time (SQLite): the turn a subscription's writers take (its lease
 * claims and advisory takes, and its outcomes), rather than wait in the database's busy handler, which
 * sleeps. Where it takes many, taking the turn does nothing.
 */
final class WriteTurn {
    private final ReentrantLock lock;

    private WriteTurn(ReentrantLock lock) {
        this.lock = lock;
    }

    static WriteTurn of(QueueDialect dialect) {
        return new WriteTurn(dialect.claimsInParallel() ? null : new ReentrantLock());
    }

    /** The lock itself, null where the database takes many writers; for tests that hold the turn. */
    ReentrantLock reentrantLock() {
        return lock;
    }

    void lock() {
        if (lock != null) {
            lock.lock();
        }
    }

    void lockInterruptibly() throws InterruptedException {
        if (lock != null) {
            lock.lockInterruptibly();
        }
    }

    void unlock() {
        if (lock != null) {
            lock.unlock();
        }
    }
}
