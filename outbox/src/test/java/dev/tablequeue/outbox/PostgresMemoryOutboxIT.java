package dev.tablequeue.outbox;

/** The outbox suite on Postgres, over the memory transport. */
class PostgresMemoryOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return MemoryTestTransport.KIND;
    }
}
