package dev.tablequeue.examples;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.test.Engine;
import org.jooq.SQLDialect;

/** The example migrations on MariaDB. */
class MariaDbMigrationsIT extends MigrationsContract {

    @Override
    protected Engine engine() {
        return Engine.MARIADB;
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
    protected String offsetSessionTimeZone() {
        return "SET time_zone = '+05:30'";
    }
}
