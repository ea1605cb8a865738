package dev.tablequeue.opentelemetry;

class MariaDbTableTracingTest extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.MARIADB;
    }
}
