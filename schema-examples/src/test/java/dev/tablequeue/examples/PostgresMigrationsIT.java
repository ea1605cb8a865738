package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;
import org.jooq.SQLDialect;

/** The example migrations on PostgreSQL. */
class PostgresMigrationsIT extends MigrationsContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.POSTGRES;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.POSTGRES;
    }

    @Override
    protected SQLDialect dialect() {
        return SQLDialect.POSTGRES;
    }

    @Override
    protected String offsetSessionTimeZone() {
        return "SET TIME ZONE 'Asia/Kolkata'";
    }
}
