package dev.tablequeue.outbox;

/** The outbox suite on Sqlite, over the rabbit transport. */
class SqliteRabbitOutboxIT extends RabbitOutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return RabbitTestTransport.KIND;
    }
}
