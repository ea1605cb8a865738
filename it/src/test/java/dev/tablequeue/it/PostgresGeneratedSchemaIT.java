package dev.tablequeue.it;

/** A table generated in the schema {@code public}, served on PostgreSQL. */
class PostgresGeneratedSchemaIT extends GeneratedSchemaContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
