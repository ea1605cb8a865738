package dev.tablequeue.test;

import org.junit.jupiter.api.extension.RegisterExtension;

class SqliteKitIT extends KitContract {
    @RegisterExtension
    static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.SQLITE).migrations("classpath:db/kit/sqlite").build();

    @Override
    TableQueueDatabase db() {
        return DB;
    }
}
