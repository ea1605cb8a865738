package dev.tablequeue.dialect;

import java.sql.Connection;
import java.util.List;
import java.util.Optional;

/** {@link KeyLocks} the process keeps, for a database whose sessions hold none. */
record ProcessLocks(ProcessKeys keys) implements KeyLocks {

    @Override
    public List<Statement> statements() {
        return List.of();
    }

    @Override
    public boolean tryLock(Connection c, String key) {
        return keys.tryTake(key);
    }

    @Override
    public boolean unlock(Connection c, String key) {
        return keys.release(key);
    }

    @Override
    public Optional<ProcessKeys> inProcess() {
        return Optional.of(keys);
    }
}
