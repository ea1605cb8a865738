package dev.tablequeue.test;

import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresKitIT extends KitContract {
    @RegisterExtension
    static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.POSTGRES).migrations("classpath:db/kit/postgresql").build();

    @Override
    TableQueueDatabase db() {
        return DB;
    }
}
