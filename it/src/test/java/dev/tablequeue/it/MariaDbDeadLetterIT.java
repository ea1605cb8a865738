package dev.tablequeue.it;

/** The dead-letter suite on MariaDB, in every form. */
class MariaDbDeadLetterIT extends DeadLetterContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
