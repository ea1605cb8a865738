package dev.tablequeue.cli;

import dev.tablequeue.TableQueueException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code tablequeue} command: stats, redrive and purge of a service's queue tables, its dashboard and its
 * AsyncAPI document, over a JDBC URL and a binding constant of the service's own classes.
 *
 * <pre>
 * java -jar tablequeue-cli-VERSION-all.jar stats --url jdbc:postgresql://db/app?user=ops \
 *     --classpath service.jar --binding com.acme.Queues#SEND_EMAIL --dead-letter escalated
 * </pre>
 */
@Command(name = "tablequeue", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Reads, serves and repairs the queues kept in a service's tables.",
        subcommands = {StatsCommand.class, RedriveCommand.class, PurgeCommand.class, RetentionCommand.class,
                SchedulesCommand.class, ServeCommand.class, AsyncApiCommand.class})
public final class TableQueueCli implements Runnable {
    /**
     * The exit code of every refusal: a command that failed on the database, on its arguments' meaning, or on
     * arguments it could not parse. The refusal is one line on the error stream, never a stack trace.
     */
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
            return refuse(line.getErr(), message(e));
        });
        cli.setParameterExceptionHandler((e, given) -> {
            // not picocli's usage text after the message: one line, and where the help is
            String command = e.getCommandLine().getCommandName();
            String help = e.getCommandLine() == cli ? "tablequeue --help" : "tablequeue " + command + " --help";
            return refuse(e.getCommandLine().getErr(), e.getMessage() + " (see " + help + ")");
        });
        int code;
        try {
            code = cli.execute(args);
        } catch (Error e) {
            // what the handlers above never see (picocli hands them exceptions only): a class of the service
            // that links against one missing from the class path, a JVM out of memory
            code = refuse(err, e.getClass().getName() + ": " + e.getMessage());
        }
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Starts {@code tablequeue serve ARGS} and returns once the dashboard listens, instead of waiting for an
     * interrupt as {@link #run} does: for tests, and for a host that stops the dashboard itself.
     *
     * @throws IllegalArgumentException where the arguments are refused (as {@code run} prints them)
     */
    public static Served serve(PrintWriter out, PrintWriter err, String... args) throws IOException {
        CommandLine cli = new CommandLine(new TableQueueCli());
        cli.setOut(out);
        cli.setErr(err);
        String[] all = new String[args.length + 1];
        all[0] = "serve";
        System.arraycopy(args, 0, all, 1, args.length);
        CommandLine.ParseResult parsed = cli.parseArgs(all);
        return ((ServeCommand) parsed.subcommand().commandSpec().userObject()).start();
    }

    /** A dashboard {@link #serve} started: where it is, and {@link #close()} to stop it and its connections. */
    public interface Served extends AutoCloseable {
        /** Where the page is: {@code http://host:port/}. */
        URI uri();

        @Override
        void close();
    }

    private static int refuse(PrintWriter err, String message) {
        err.println("tablequeue: " + String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", "; "));
        return FAILED;
    }

    private static String message(Exception e) {
        if (e.getMessage() == null) {
            // a fault of the command itself (no refusal has no message): its class at least says which
            return e.getClass().getName() + (e.getCause() == null ? "" : " (" + e.getCause() + ")");
        }
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
