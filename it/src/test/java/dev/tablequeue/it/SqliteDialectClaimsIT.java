package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectClaimsContract;

/** The dialect contract's claims on a SQLite file: times as SqliteTime text. */
class SqliteDialectClaimsIT extends DialectClaimsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
