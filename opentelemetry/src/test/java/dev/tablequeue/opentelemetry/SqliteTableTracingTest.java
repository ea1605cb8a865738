package dev.tablequeue.opentelemetry;

class SqliteTableTracingTest extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.SQLITE;
    }
}
