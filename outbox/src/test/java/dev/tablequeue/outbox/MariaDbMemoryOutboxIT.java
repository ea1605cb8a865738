package dev.tablequeue.outbox;

/** The outbox suite on MariaDb, over the memory transport. */
class MariaDbMemoryOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.MARIADB;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return MemoryTestTransport.KIND;
    }
}
