package dev.tablequeue.cli;

import dev.tablequeue.binding.Role;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.dashboard.Dashboard;
import dev.tablequeue.dashboard.DashboardServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tablequeue serve}: the dashboard over a table's queues, until the process is interrupted. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serves the dashboard of the table's queues on a port (read-only unless --actions) until"
                + " interrupted.")
final class ServeCommand implements Callable<Integer> {
    /** Where the access token is read from when {@code --token} is not given. */
    static final String TOKEN_ENV = "TABLEQUEUE_DASHBOARD_TOKEN";

    @Mixin
    Target target;

    @Option(names = "--queue", paramLabel = "NAME",
            description = "a queue (group) to show; repeatable; default: every group the table's rows are in")
    List<String> queues = new ArrayList<>();

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Target.DeadLetterOption deadLetter;

    @Option(names = "--port", defaultValue = "8081", description = "the port to listen on (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
            description = "the address to listen on (default ${DEFAULT-VALUE}: this machine only)")
    String bind;

    @Option(names = "--actions",
            description = "offer redrive, retry now and delete (default: read-only); needs an access token")
    boolean actions;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "the access token (16+ letters, digits or -._~); default: $" + TOKEN_ENV)
    String token;

    @Option(names = "--title", description = "the page's heading (default: tablequeue)")
    String title;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Serving serving = start();
        Runtime.getRuntime().addShutdownHook(new Thread(serving::close, "tablequeue-serve-shutdown"));
        spec.commandLine().getOut().println("tablequeue dashboard at " + serving.uri() + " (Ctrl-C stops it)");
        spec.commandLine().getOut().flush();
        serving.awaitClose();
        return 0;
    }

    /** Starts the dashboard and returns at once: the caller closes what it returns. */
    Serving start() throws IOException {
        String access = token != null ? token : System.getenv(TOKEN_ENV);
        if (actions && (access == null || access.isBlank())) {
            throw new IllegalArgumentException("--actions needs an access token: give --token or set " + TOKEN_ENV
                    + " (anyone who reaches the port could otherwise delete rows)");
        }
        Target.Pooled pooled = target.openPool(2);
        try {
            Dashboard.Builder builder = Dashboard.builder(target.admin(pooled.pool())).actions(actions);
            if (access != null && !access.isBlank()) {
                builder.token(access);
            }
            if (title != null) {
                builder.title(title);
            }
            if (target.database.now != null) {
                builder.clock(Clock.fixed(target.database.now, ZoneOffset.UTC));
            }
            List<String> names = queues;
            if (names.isEmpty()) {
                names = pooled.binding().has(Role.GROUP) ? target.admin(pooled.pool()).groups(pooled.binding())
                        : Collections.singletonList(null);
            }
            if (names.isEmpty()) {
                throw new IllegalArgumentException("table " + pooled.binding().tableName() + " holds no rows, so"
                        + " no queue to show: name one with --queue");
            }
            DeadLetter dead = deadLetter == null ? null : deadLetter.deadLetter();
            for (String name : names) {
                builder.queue(pooled.queue(name), dead);
            }
            DashboardServer server = builder.build().serve(new InetSocketAddress(bind, port));
            return new Serving(server, pooled);
        } catch (IOException | RuntimeException | Error e) {
            pooled.close();
            throw e;
        }
    }

    /** A dashboard being served, and the pool it reads through: {@link #close()} stops both. */
    static final class Serving implements TableQueueCli.Served {
        private final DashboardServer server;
        private final Target.Pooled pooled;
        private final CountDownLatch closed = new CountDownLatch(1);

        Serving(DashboardServer server, Target.Pooled pooled) {
            this.server = server;
            this.pooled = pooled;
        }

        @Override
        public URI uri() {
            return server.uri();
        }

        void awaitClose() throws InterruptedException {
            closed.await();
        }

        @Override
        public synchronized void close() {
            if (closed.getCount() == 0) {
                return;
            }
            try {
                server.close();
            } finally {
                pooled.close();
                closed.countDown();
            }
        }
    }
}
