package dev.tablequeue.it;

/** A table generated in the schema {@code public}, served on MySQL 8, where {@code TABLEQUEUE_MYSQL_URL} names a server (skipped otherwise). */
class MySqlGeneratedSchemaIT extends GeneratedSchemaContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MYSQL;
    }
}
