package dev.tablequeue.test.contract;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLNonTransientConnectionException;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * A data source over a pool whose next update of a chosen kind fails as a connection the server killed
 * does (SQL state 08006): before it reaches the server, so nothing is written, or after it has run in
 * auto-commit, so it is written and its answer lost. Every later update of that kind is counted.
 */
final class FailingConnections extends ForwardingDataSource {
    /** When the armed update fails. */
    enum When {
        /** Before it is sent: nothing is written. */
        BEFORE,
        /** After it has run: it is written, and its answer is lost. */
        AFTER
    }

    private final Predicate<String> kind;
    private final AtomicReference<When> armed = new AtomicReference<>();
    /** Counted down when the armed update failed. */
    final CountDownLatch failed = new CountDownLatch(1);
    /** Updates of the kind run after the failure. */
    final AtomicInteger runAfter = new AtomicInteger();

    FailingConnections(DataSource target, Predicate<String> kind) {
        super(target);
        this.kind = kind;
    }

    /** The extension of a lease: an update of the lease column alone. */
    static boolean leaseExtension(String sql) {
        String s = sql.toLowerCase(Locale.ROOT);
        return s.startsWith("update") && s.contains("locked_until") && !s.contains("processed_at")
                && !s.contains("attempt") && !s.contains("retry_after");
    }

    /** Makes the next update of the kind fail {@code when}. */
    void arm(When when) {
        armed.set(when);
    }

    @Override
    protected Connection lend(Connection c) {
        return intercepting(c, (target, method, args) -> {
            Object result = forward(target, method, args);
            if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                    && kind.test(sql)) {
                return statement((PreparedStatement) result);
            }
            return result;
        });
    }

    private PreparedStatement statement(PreparedStatement statement) {
        return intercepting(statement, (ps, method, args) -> {
            if (!method.getName().equals("executeUpdate") || args != null) {
                return forward(ps, method, args);
            }
            When when = armed.getAndSet(null);
            if (when == null) {
                if (failed.getCount() == 0) {
                    runAfter.incrementAndGet();
                }
                return forward(ps, method, args);
            }
            if (when == When.AFTER) {
                forward(ps, method, args);
            }
            failed.countDown();
            throw new SQLNonTransientConnectionException("the test cut the connection off (" + when + ")", "08006");
        });
    }
}
