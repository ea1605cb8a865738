package dev.tablequeue.it;

import dev.tablequeue.test.contract.DecodingContract;

/** The decoding suite on a SQLite file. */
class SqliteDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
