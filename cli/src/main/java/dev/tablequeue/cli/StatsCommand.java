package dev.tablequeue.cli;

import dev.tablequeue.binding.Role;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.QueueStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tablequeue stats}: the counts of a table's queues. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Counts each queue's pending, scheduled, in-work, dead and processed rows, the oldest pending"
                + " row's age and the rows by attempt.")
final class StatsCommand implements Callable<Integer> {
    @Mixin
    Target target;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "a queue (group) to read; repeatable; default: every group the table's rows are in")
    List<String> queues = new ArrayList<>();

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Target.DeadLetterOption deadLetter;

    @Mixin
    Printing printing;

    @Override
    public Integer call() {
        try (Target.Session session = target.open()) {
            List<String> names = queues;
            if (names.isEmpty()) {
                names = session.binding().has(Role.GROUP) ? session.admin().groups(session.binding())
                        : java.util.Collections.singletonList(null);
            }
            DeadLetter dead = deadLetter == null ? null : deadLetter.deadLetter();
            List<QueueStats> stats = new ArrayList<>();
            for (String name : names) {
                stats.add(session.admin().stats(session.queue(name), dead));
            }
            printing.out().print(printing.json ? Output.statsJson(session.binding().tableName(), stats)
                    : Output.statsTable(stats));
            return 0;
        }
    }
}
