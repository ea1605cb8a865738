package dev.tablequeue.it;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.RecurringJob;
import dev.tablequeue.broker.Schedule;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
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

    /** An hourly recurring job into the {@value #TABLE} table, keyed by its note column, per database. */
    public static final RecurringJob POSTGRES_SWEEP = sweep(TestDatabase.POSTGRES, true);
    public static final RecurringJob MARIADB_SWEEP = sweep(TestDatabase.MARIADB, true);
    public static final RecurringJob MYSQL_SWEEP = sweep(TestDatabase.MYSQL, true);
    public static final RecurringJob SQLITE_SWEEP = sweep(TestDatabase.SQLITE, true);

    /** A recurring job into a binding without a unique key, which a schedule refuses (on any database). */
    public static final RecurringJob UNKEYED_SWEEP = sweep(TestDatabase.SQLITE, false);

    /** Not a binding: the command line refuses it. */
    public static final String NOT_A_BINDING = "cli_jobs";

    private CliBindings() {}

    private static RoleBinding<Record> binding(TestDatabase database) {
        return Jobs.binding(new Jobs(TABLE, database.timeType()), Form.LEASE);
    }

    private static RecurringJob sweep(TestDatabase database, boolean keyed) {
        Jobs t = new Jobs(TABLE, database.timeType());
        RoleBinding.Builder<Record> b = Jobs.payloadRoles(t).lease(t.LOCKED_UNTIL);
        RoleBinding<Record> binding = keyed ? b.uniqueKey(t.NOTE).build() : b.build();
        return RecurringJob.of(Schedule.every("sweep", Duration.ofHours(1)), InboxQueue.of(binding, "sweeps"),
                instant -> "sweep");
    }
}
