package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.examples.jooq.postgres.DefaultSchema;
import dev.tablequeue.testkit.LiveDatabase;
import org.jooq.SQLDialect;
import org.jooq.Schema;

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
    protected Schema schema() {
        return DefaultSchema.DEFAULT_SCHEMA;
    }

    @Override
    protected String offsetSessionTimeZone() {
        return "SET TIME ZONE 'Asia/Kolkata'";
    }
}
