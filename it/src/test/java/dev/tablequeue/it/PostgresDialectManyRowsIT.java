package dev.tablequeue.it;

import dev.tablequeue.test.contract.DialectManyRowsContract;

/** The dialect contract's settlements of many rows on PostgreSQL: unnested arrays. */
class PostgresDialectManyRowsIT extends DialectManyRowsContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
