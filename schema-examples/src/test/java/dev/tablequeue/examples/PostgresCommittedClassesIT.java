package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;

/** The committed PostgreSQL classes against a fresh generation. */
class PostgresCommittedClassesIT extends CommittedClassesContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.POSTGRES;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.POSTGRES;
    }
}
