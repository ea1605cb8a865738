package dev.tablequeue.it;

import dev.tablequeue.test.contract.SettlementContract;

/** The settlement suite (published in the kit) on a SQLite file. */
class SqliteSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
