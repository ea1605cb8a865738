package dev.tablequeue.outbox;

/** The outbox suite on Postgres, over the rabbit transport. */
class PostgresRabbitOutboxIT extends RabbitOutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.POSTGRES;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return RabbitTestTransport.KIND;
    }
}
