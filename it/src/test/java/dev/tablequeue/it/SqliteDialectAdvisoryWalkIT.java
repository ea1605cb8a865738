package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectAdvisoryWalkContract;

/** The dialect contract's advisory walks on a SQLite file: times as SqliteTime text. */
class SqliteDialectAdvisoryWalkIT extends DialectAdvisoryWalkContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
