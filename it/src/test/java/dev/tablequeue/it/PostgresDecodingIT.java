package dev.tablequeue.it;

/** The decoding and failure suite on PostgreSQL. */
class PostgresDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
