package dev.tablequeue.it;

/** A table generated in the schema {@code public}, served on SQLite. */
class SqliteGeneratedSchemaIT extends GeneratedSchemaContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }
}
