package dev.tablequeue.it;

/** The settlement suite on a SQLite file. */
class SqliteSettlementIT extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
