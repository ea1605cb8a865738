package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.test.Engine;

/** The README's transactional handler on PostgreSQL, on the migrated example schema. */
class PostgresTransactionalHandlerIT extends TransactionalHandlerContract {

    @Override
    protected Engine engine() {
        return Engine.POSTGRES;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.POSTGRES;
    }
}
