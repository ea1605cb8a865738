package dev.tablequeue.cli;

import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.RecurringJob;
import dev.tablequeue.broker.ScheduleState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tablequeue schedules}: the service's recurring jobs (its {@code RecurringJob} constants) as their tables
 * hold them: the newest instant published and the next one a running broker publishes.
 */
@Command(name = "schedules", mixinStandardHelpOptions = true,
        description = "Lists recurring jobs with the newest instant their table holds and the next one due.")
final class SchedulesCommand implements Callable<Integer> {
    @Mixin
    Database database;

    @Option(names = "--job", required = true, paramLabel = "CLASS#FIELD",
            description = "a static final RecurringJob of the service, e.g. com.acme.Jobs#NIGHTLY_REPORT; repeatable")
    List<String> jobs = new ArrayList<>();

    @Mixin
    Printing printing;

    @Override
    public Integer call() throws SQLException {
        ServiceClassPath classes = ServiceClassPath.of(database.classpath);
        try (classes; Connection c = database.connect(classes.loader())) {
            QueueAdmin admin = database.admin(c);
            List<ScheduleState> states = new ArrayList<>();
            for (String spec : jobs) {
                RecurringJob job = Constants.load("--job", spec, classes.loader(), RecurringJob.class,
                        "com.acme.Jobs#NIGHTLY_REPORT");
                states.add(admin.schedule(job));
            }
            printing.out().print(printing.json ? Output.schedulesJson(states) : Output.schedulesTable(states));
            return 0;
        }
    }
}
