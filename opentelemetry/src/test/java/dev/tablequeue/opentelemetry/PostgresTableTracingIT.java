package dev.tablequeue.opentelemetry;

class PostgresTableTracingIT extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.POSTGRES;
    }
}
