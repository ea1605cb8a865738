package dev.tablequeue.dialect;

import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** {@link KeyLocks} a database session holds, taken and released by one statement each. */
record SessionLocks(QueueDialect dialect, Statement lock, Statement unlock) implements KeyLocks {

    @Override
    public List<Statement> statements() {
        return List.of(lock, unlock);
    }

    @Override
    public boolean tryLock(Connection c, String key) throws SQLException {
        return Jdbc.query(c, lock, new Binds().key(key), dialect, Jdbc::firstBoolean);
    }

    @Override
    public boolean unlock(Connection c, String key) throws SQLException {
        return Jdbc.query(c, unlock, new Binds().key(key), dialect, Jdbc::firstBoolean);
    }

    @Override
    public Optional<ProcessKeys> inProcess() {
        return Optional.empty();
    }
}
