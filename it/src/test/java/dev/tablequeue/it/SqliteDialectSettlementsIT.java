package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectSettlementsContract;

/** The dialect contract's settlements on a SQLite file: times as SqliteTime text. */
class SqliteDialectSettlementsIT extends DialectSettlementsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
