package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryContract;

/** The dialect contract's advisory locks on a SQLite file: times as SqliteTime text. */
class SqliteDialectAdvisoryIT extends DialectAdvisoryContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
