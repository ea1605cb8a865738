package dev.tablequeue.outbox;

/** The outbox suite on MariaDb, over the table transport. */
class MariaDbTableOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.MARIADB;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return TableTestTransport.KIND;
    }
}
