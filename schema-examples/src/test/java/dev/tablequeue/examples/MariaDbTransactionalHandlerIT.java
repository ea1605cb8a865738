package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.test.Engine;

/** The README's transactional handler on MariaDB, on the migrated example schema. */
class MariaDbTransactionalHandlerIT extends TransactionalHandlerContract {

    @Override
    protected Engine engine() {
        return Engine.MARIADB;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.MARIADB;
    }
}
