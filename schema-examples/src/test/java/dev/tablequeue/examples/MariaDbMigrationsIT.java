package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.examples.jooq.mariadb.DefaultSchema;
import dev.tablequeue.testkit.LiveDatabase;
import org.jooq.SQLDialect;
import org.jooq.Schema;

/** The example migrations on MariaDB. */
class MariaDbMigrationsIT extends MigrationsContract {

    @Override
    protected LiveDatabase.Engine engine() {
        return LiveDatabase.Engine.MARIADB;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.MARIADB;
    }

    @Override
    protected SQLDialect dialect() {
        return SQLDialect.MARIADB;
    }

    @Override
    protected Schema schema() {
        return DefaultSchema.DEFAULT_SCHEMA;
    }

    @Override
    protected String offsetSessionTimeZone() {
        return "SET time_zone = '+05:30'";
    }
}
