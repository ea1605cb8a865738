package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.test.contract.Jobs;
import org.jooq.Record;

/**
 * Binding constants the command line finds by {@code class#FIELD}, as it finds a service's: one lease-form
 * binding of the {@value #TABLE} table per database, named as the {@link TestDatabase}.
 */
public final class CliBindings {
    /** The queue table of the command-line suite. */
    public static final String TABLE = "cli_jobs";

    public static final RoleBinding<Record> POSTGRES = binding(TestDatabase.POSTGRES);
    public static final RoleBinding<Record> MARIADB = binding(TestDatabase.MARIADB);
    public static final RoleBinding<Record> MYSQL = binding(TestDatabase.MYSQL);
    public static final RoleBinding<Record> SQLITE = binding(TestDatabase.SQLITE);

    /** Not a binding: the command line refuses it. */
    public static final String NOT_A_BINDING = "cli_jobs";

    private CliBindings() {}

    private static RoleBinding<Record> binding(TestDatabase database) {
        return Jobs.binding(new Jobs(TABLE, database.timeType()), Form.LEASE);
    }
}
