package dev.tablequeue.it;

/** The decoding and failure suite on MariaDB. */
class MariaDbDecodingIT extends DecodingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
