package dev.tablequeue.opentelemetry;

class MariaDbTableTracingIT extends TableTracingContract {
    @Override
    protected TraceDatabase db() {
        return TraceDatabase.MARIADB;
    }
}
