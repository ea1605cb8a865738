package dev.tablequeue.cli;

import dev.tablequeue.broker.Redrive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tablequeue redrive}: dead letters back into their queue. */
@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = "Moves a queue's dead letters back into it, each with its attempt back at 1: all of them, those"
                + " with the given ids, or those due longer ago than an age.")
final class RedriveCommand implements Callable<Integer> {
    @Mixin
    Target target;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "the queue (group) to move the rows into; default: the table's name, for a table without"
                    + " groups")
    String queue;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target.DeadLetterOption deadLetter;

    @Option(names = "--id", paramLabel = "ID", description = "a dead letter's id; repeatable")
    List<String> ids = new ArrayList<>();

    @Option(names = "--older-than", paramLabel = "AGE", converter = Ages.class,
            description = "only rows due longer ago than this: 90s, 15m, 12h, 7d or PT1H30M")
    Duration olderThan;

    @Mixin
    Printing printing;

    @Override
    public Integer call() {
        Redrive which = ids.isEmpty() ? Redrive.all() : Redrive.ids(ids);
        if (olderThan != null) {
            which = which.andOlderThan(olderThan);
        }
        try (Target.Session session = target.open()) {
            var q = session.queue(queue);
            long moved = session.admin().redrive(q, deadLetter.deadLetter(), which);
            printing.count(q, "redriven", moved, "redrove " + moved + " dead letter" + (moved == 1 ? "" : "s")
                    + " into " + q);
            return 0;
        }
    }
}
