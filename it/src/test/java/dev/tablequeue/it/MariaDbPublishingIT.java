package dev.tablequeue.it;

/** The publishing suite on MariaDB, in every form. */
class MariaDbPublishingIT extends PublishingContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
