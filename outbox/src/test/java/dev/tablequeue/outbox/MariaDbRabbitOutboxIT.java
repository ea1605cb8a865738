package dev.tablequeue.outbox;

/** The outbox suite on MariaDb, over the rabbit transport. */
class MariaDbRabbitOutboxIT extends RabbitOutboxContract {

    @Override
    protected OutboxDatabase database() {
        return OutboxDatabase.MARIADB;
    }

    @Override
    protected TestTransport.Kind transportKind() {
        return RabbitTestTransport.KIND;
    }
}
