package dev.tablequeue.it;

/** Where the handlers run, on MariaDB. */
class MariaDbHandlerThreadsIT extends HandlerThreadsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
