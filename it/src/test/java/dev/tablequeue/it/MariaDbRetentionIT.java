package dev.tablequeue.it;

/** Retention on MariaDB. */
class MariaDbRetentionIT extends RetentionContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
