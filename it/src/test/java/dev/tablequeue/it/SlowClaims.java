package dev.tablequeue.it;

import dev.tablequeue.test.contract.ForwardingDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * A data source over a pool whose statements run {@code delay} late on a subscription's claim thread (named
 * {@code tablequeue-<table>-<queue>-claim-<n>}), as on a database whose claims are slow: every claim then takes
 * at least that long, and the runtime measures it so.
 */
final class SlowClaims extends ForwardingDataSource {
    private static final Set<String> EXECUTIONS =
            Set.of("execute", "executeUpdate", "executeQuery", "executeLargeUpdate", "executeBatch");

    private final long delayNanos;

    SlowClaims(DataSource target, Duration delay) {
        super(target);
        this.delayNanos = delay.toNanos();
    }

    @Override
    protected Connection lend(Connection c) {
        return intercepting(c, (target, method, args) -> {
            Object result = forward(target, method, args);
            return result instanceof PreparedStatement ps ? slow(ps) : result;
        });
    }

    private PreparedStatement slow(PreparedStatement statement) {
        return intercepting(statement, (ps, method, args) -> {
            if (EXECUTIONS.contains(method.getName()) && Thread.currentThread().getName().contains("-claim-")) {
                // a slow database: the statement's answer comes late (a stand-in for the server's time)
                long until = System.nanoTime() + delayNanos;
                for (long left = delayNanos; left > 0; left = until - System.nanoTime()) {
                    LockSupport.parkNanos(left);
                }
            }
            return forward(ps, method, args);
        });
    }
}
