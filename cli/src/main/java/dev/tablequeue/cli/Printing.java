package dev.tablequeue.cli;

import dev.tablequeue.broker.InboxQueue;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** How a command prints its result: for a person, or as JSON with {@code --json}. */
final class Printing {
    @Option(names = "--json", description = "print JSON instead of text")
    boolean json;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** A count of rows a command changed in {@code queue}: {@code sentence}, or JSON under {@code key}. */
    void count(InboxQueue<?> queue, String key, long n, String sentence) {
        out().print(json ? Output.countJson(queue.binding().tableName(), queue.name(), key, n) : sentence + "\n");
    }
}
