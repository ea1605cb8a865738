package dev.tablequeue.it;

/** The settlement suite on a SQLite file. */
class SqliteSettlementTest extends SettlementContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
