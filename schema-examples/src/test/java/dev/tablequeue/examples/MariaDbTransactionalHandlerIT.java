package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;

/** The README's transactional handler on MariaDB, on the migrated example schema. */
class MariaDbTransactionalHandlerIT extends TransactionalHandlerContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.MARIADB;
    }
}
