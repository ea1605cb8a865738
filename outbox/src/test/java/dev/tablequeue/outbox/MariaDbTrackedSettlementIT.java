package dev.tablequeue.outbox;

/** Tracked deliveries' marks in their settlement's transaction, on MariaDb. */
class MariaDbTrackedSettlementIT extends TrackedSettlementContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.MARIADB;
    }
}
