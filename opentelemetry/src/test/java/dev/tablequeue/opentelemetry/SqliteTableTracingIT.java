package dev.tablequeue.opentelemetry;

class SqliteTableTracingIT extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.SQLITE;
    }
}
