package dev.tablequeue.it;

import dev.tablequeue.test.contract.ForwardingDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * A data source whose connections stop every DELETE before it runs until {@link #release} is counted down: what
 * holds a broker in the middle of a retention pass, its table's lock taken and no row yet deleted.
 */
final class HeldDeletes extends ForwardingDataSource {
    private static final Set<String> EXECUTIONS = Set.of("execute", "executeUpdate", "executeLargeUpdate");

    /** Counted down when a DELETE is about to run. */
    final CountDownLatch entered = new CountDownLatch(1);
    /** Lets every DELETE run. */
    final CountDownLatch release = new CountDownLatch(1);

    HeldDeletes(DataSource target) {
        super(target);
    }

    @Override
    protected Connection lend(Connection c) {
        return intercepting(c, (target, method, args) -> {
            Object result = forward(target, method, args);
            if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                    && CountingConnections.plain(sql).startsWith("delete")) {
                return held((PreparedStatement) result);
            }
            return result;
        });
    }

    private PreparedStatement held(PreparedStatement statement) {
        return intercepting(statement, (ps, method, args) -> {
            if (EXECUTIONS.contains(method.getName()) && (args == null || args.length == 0)) {
                entered.countDown();
                if (!release.await(60, TimeUnit.SECONDS)) {
                    throw new SQLException("the test never released the held DELETE");
                }
            }
            return forward(ps, method, args);
        });
    }
}
