package dev.tablequeue.it;

import dev.tablequeue.test.contract.DecodingContract;

/** The decoding suite on MariaDB. */
class MariaDbDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
