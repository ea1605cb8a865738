package dev.tablequeue.outbox;

/** The outbox suite on Postgres, over the table transport. */
class PostgresTableOutboxIT extends OutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return TableTestTransport.KIND;
    }
}
