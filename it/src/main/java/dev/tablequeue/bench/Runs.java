package dev.tablequeue.bench;

/** One timed run on a fresh bench table, and the checks that every message was handled (or written). */
final class Runs {
    private Runs() {}

    interface OnTable {
        Measurement run(BenchTable table) throws Exception;
    }

    /** A fresh table of {@code n} due rows, consumed by {@code run}; every row must end acknowledged. */
    static Measurement consume(BenchDatabase db, long n, OnTable run) throws Exception {
        return consume(db, n, 0, false, run);
    }

    /**
     * As {@link #consume(BenchDatabase, long, OnTable)}, behind {@code acknowledged} acknowledged rows; with
     * {@code effects}, every row must also have exactly one effect row committed (its primary key refuses two).
     */
    static Measurement consume(BenchDatabase db, long n, long acknowledged, boolean effects, OnTable run)
            throws Exception {
        BenchTable table = db.newTable();
        try {
            if (acknowledged > 0) {
                db.fillAcknowledged(table, acknowledged);
            }
            db.prefill(table, n);
            System.gc();
            Measurement m = run.run(table);
            long left = db.count(table.getName(), "processed_at IS NULL");
            if (left != 0) {
                throw new IllegalStateException(left + " of " + n + " row(s) were not acknowledged");
            }
            long written = effects ? db.count(Engine.effects(table.getName()), "1 = 1") : n;
            if (written != n) {
                throw new IllegalStateException(written + " effect row(s) committed for " + n + " acknowledged rows");
            }
            return m;
        } finally {
            db.drop(table);
        }
    }

    /** A fresh empty table, {@code n} messages written by {@code run}; every one must be there. */
    static Measurement publish(BenchDatabase db, long n, OnTable run) throws Exception {
        BenchTable table = db.newTable();
        try {
            System.gc();
            Measurement m = run.run(table);
            long rows = db.count(table.getName(), "1 = 1");
            if (rows != n) {
                throw new IllegalStateException(rows + " row(s) written instead of " + n);
            }
            return m;
        } finally {
            db.drop(table);
        }
    }
}
