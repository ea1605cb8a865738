package dev.tablequeue.it;

import dev.tablequeue.test.contract.DecodingContract;

/** The decoding suite on PostgreSQL. */
class PostgresDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
