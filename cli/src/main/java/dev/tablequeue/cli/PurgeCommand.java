package dev.tablequeue.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

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

    @Option(names = "--json", description = "print JSON instead of a sentence")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (Target.Session session = target.open()) {
            var q = session.queue(queue);
            long purged = session.admin().purge(q, olderThan);
            var out = spec.commandLine().getOut();
            out.print(json ? Output.countJson(session.binding().tableName(), q.name(), "purged", purged)
                    : "purged " + purged + " processed row" + (purged == 1 ? "" : "s") + " of " + q + "\n");
            return 0;
        }
    }
}
