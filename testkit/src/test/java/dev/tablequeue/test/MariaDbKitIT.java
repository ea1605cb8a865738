package dev.tablequeue.test;

import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbKitIT extends KitContract {
    @RegisterExtension
    static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.MARIADB).migrations("classpath:db/kit/mariadb").build();

    @Override
    TableQueueDatabase db() {
        return DB;
    }
}
