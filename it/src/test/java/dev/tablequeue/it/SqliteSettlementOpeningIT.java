package dev.tablequeue.it;

/** The settlement openings suite on a SQLite file. */
class SqliteSettlementOpeningIT extends SettlementOpeningContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
