package dev.tablequeue.it;

import dev.tablequeue.test.contract.SettlementContract;

/** The settlement suite on a SQLite file. */
class SqliteSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
