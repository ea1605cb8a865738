package dev.tablequeue.dialect;

import dev.tablequeue.binding.RoleBinding;

/**
 * What the benchmark harness's batched raw loops read of a built-in dialect beyond what a subscription runs:
 * the lease stamp of many rows in one statement, which the batched raw lease loop runs where the dialect's
 * claim does not stamp its rows. (The harness sits in this package for it: the statement is no part of the SPI.)
 */
public final class BenchStatements {
    private BenchStatements() {}

    /** The lease stamp of {@code count} rows, as the built-in {@code dialect} writes it. */
    public static Statement leaseStamp(QueueDialect dialect, RoleBinding<?> binding, int count) {
        if (dialect instanceof JooqQueueDialect builtIn) {
            return builtIn.leaseStamp(binding, count);
        }
        throw new IllegalArgumentException("the " + dialect.name() + " dialect is not a built-in one: the harness"
                + " has no many-row lease stamp of it");
    }
}
