package dev.tablequeue.it;

/** The decoding and failure suite on a SQLite file. */
class SqliteDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
