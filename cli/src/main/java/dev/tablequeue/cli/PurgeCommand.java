package dev.tablequeue.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tablequeue purge}: acknowledged rows deleted once old enough. */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = "Deletes a queue's acknowledged rows processed longer ago than an age.")
final class PurgeCommand implements Callable<Integer> {
    @Mixin
    Target target;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "the queue (group) to purge; default: the table's name, for a table without groups")
    String queue;

    @Option(names = "--older-than", required = true, paramLabel = "AGE", converter = Ages.class,
            description = "rows processed longer ago than this: 90s, 15m, 12h, 7d or PT1H30M")
    Duration olderThan;

    @Mixin
    Printing printing;

    @Override
    public Integer call() {
        try (Target.Session session = target.open()) {
            var q = session.queue(queue);
            long purged = session.admin().purge(q, olderThan);
            printing.count(q, "purged", purged, "purged " + purged + " processed row" + (purged == 1 ? "" : "s")
                    + " of " + q);
            return 0;
        }
    }
}
