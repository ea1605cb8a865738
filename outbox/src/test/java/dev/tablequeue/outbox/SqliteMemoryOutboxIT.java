package dev.tablequeue.outbox;

/** The outbox suite on Sqlite, over the memory transport. */
class SqliteMemoryOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return MemoryTestTransport.KIND;
    }
}
