package dev.tablequeue.outbox;

/** The outbox suite on Sqlite, over the table transport. */
class SqliteTableOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.SQLITE;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return TableTestTransport.KIND;
    }
}
