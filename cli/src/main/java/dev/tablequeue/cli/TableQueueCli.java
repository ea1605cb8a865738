package dev.tablequeue.cli;

import dev.tablequeue.TableQueueException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tablequeue} command: stats, redrive and purge of a service's queue tables, over a JDBC URL and
 * a binding constant of the service's own classes.
 *
 * <pre>
 * java -jar tablequeue-cli-VERSION-all.jar stats --url jdbc:postgresql://db/app?user=ops \
 *     --classpath service.jar --binding com.acme.Queues#SEND_EMAIL --dead-letter escalated
 * </pre>
 */
@Command(name = "tablequeue", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Reads and repairs the queues kept in a service's tables.",
        subcommands = {StatsCommand.class, RedriveCommand.class, PurgeCommand.class})
public final class TableQueueCli implements Runnable {
    /** The exit code of a command that failed on the database or on its arguments' meaning. */
    public static final int FAILED = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(out, err, args));
    }

    /** Runs the command with {@code args}, printing to {@code out} and {@code err}; the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new TableQueueCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            // a refusal or a failed statement: its message names the table, the statement and the queue
            line.getErr().println("tablequeue: " + message(e));
            return FAILED;
        });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private static String message(Exception e) {
        if (e instanceof TableQueueException || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException || e.getCause() == null) {
            return e.getMessage();
        }
        return e.getMessage() + " (" + e.getCause().getMessage() + ")";
    }

    /** Without a subcommand: the usage. */
    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
