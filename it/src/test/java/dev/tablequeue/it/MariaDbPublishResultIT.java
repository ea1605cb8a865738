package dev.tablequeue.it;

/** What a publish returns, on MariaDB. */
class MariaDbPublishResultIT extends PublishResultContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
