package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;

/** The committed MariaDB classes against a fresh generation. */
class MariaDbCommittedClassesIT extends CommittedClassesContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.MARIADB;
    }
}
