package dev.tablequeue.outbox;

/** Tracked deliveries' marks in their settlement's transaction, on Sqlite. */
class SqliteTrackedSettlementIT extends TrackedSettlementContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }
}
