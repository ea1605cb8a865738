package dev.tablequeue.it;

/** A table generated in the schema {@code public}, served on MariaDB. */
class MariaDbGeneratedSchemaIT extends GeneratedSchemaContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
