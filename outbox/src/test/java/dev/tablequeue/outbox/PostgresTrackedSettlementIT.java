package dev.tablequeue.outbox;

/** Tracked deliveries' marks in their settlement's transaction, on Postgres. */
class PostgresTrackedSettlementIT extends TrackedSettlementContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }
}
