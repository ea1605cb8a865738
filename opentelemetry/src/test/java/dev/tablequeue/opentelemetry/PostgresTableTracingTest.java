package dev.tablequeue.opentelemetry;

class PostgresTableTracingTest extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.POSTGRES;
    }
}
