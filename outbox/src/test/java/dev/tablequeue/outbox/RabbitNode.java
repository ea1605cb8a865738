package dev.tablequeue.outbox;

import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.ConnectionFactory;
import dev.tablequeue.test.FreshDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A RabbitMQ node of a test's own, started from this machine's RabbitMQ installation
 * ({@code /usr/lib/rabbitmq/bin/rabbitmq-server}, or {@code TABLEQUEUE_RABBITMQ_SERVER}) on free ports, with its
 * data, configuration and logs under {@code target/}: a drill can kill it ({@code kill -9}) and start it again
 * without touching the RabbitMQ server other tests and builds use. Where there is no installation, the test fails,
 * as one whose server cannot be reached does (skipped with {@code TABLEQUEUE_SKIP_UNREACHABLE=1}).
 */
final class RabbitNode implements AutoCloseable {
    private static final Duration STARTUP = Duration.ofMinutes(2);

    private final Path server;
    private final Path dir;
    private final String name;
    private final int port;
    private final int distPort;
    private Process process;

    private RabbitNode(Path server, Path dir, String name, int port, int distPort) {
        this.server = server;
        this.dir = dir;
        this.name = name;
        this.port = port;
        this.distPort = distPort;
    }

    /** Starts a node and waits until it takes connections. */
    static RabbitNode start() throws IOException {
        String configured = System.getenv("TABLEQUEUE_RABBITMQ_SERVER");
        Path server = Path.of(configured == null || configured.isBlank()
                ? "/usr/lib/rabbitmq/bin/rabbitmq-server" : configured);
        if (!Files.isExecutable(server)) {
            String why = "no RabbitMQ installation at " + server + " to start a node of the drill's own"
                    + " (TABLEQUEUE_RABBITMQ_SERVER names its rabbitmq-server script)";
            if (FreshDatabase.liveRequired()) {
                throw new IllegalStateException(why + "; TABLEQUEUE_SKIP_UNREACHABLE=1 skips the drill instead");
            }
            Assumptions.abort(why);
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        Path dir = Path.of("target", "rabbit-node-" + id).toAbsolutePath();
        Files.createDirectories(dir.resolve("home"));
        int port = freePort();
        Files.writeString(dir.resolve("rabbitmq.conf"), "listeners.tcp.1 = 127.0.0.1:" + port + "\n");
        Files.writeString(dir.resolve("rabbitmq-env.conf"), "");
        Files.writeString(dir.resolve("enabled_plugins"), "[].\n");
        RabbitNode node = new RabbitNode(server, dir, "tqdrill" + id + "@localhost", port, freePort());
        node.launch();
        return node;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void launch() {
        ProcessBuilder pb = new ProcessBuilder(server.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("node.log").toFile()));
        Map<String, String> env = pb.environment();
        env.put("HOME", dir.resolve("home").toString());
        env.put("RABBITMQ_NODENAME", name);
        env.put("RABBITMQ_DIST_PORT", String.valueOf(distPort));
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
        env.put("RABBITMQ_CONF_ENV_FILE", dir.resolve("rabbitmq-env.conf").toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
        env.put("RABBITMQ_PID_FILE", dir.resolve("pid").toString());
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + server, e);
        }
        await("RabbitMQ node " + name + " on port " + port + " (see " + dir.resolve("node.log") + ")")
                .atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the RabbitMQ node ended with " + process.exitValue()
                                + "; see " + dir.resolve("node.log"));
                    }
                    try (var c = factory().newConnection()) {
                        return c.isOpen();
                    } catch (IOException | java.util.concurrent.TimeoutException e) {
                        return false;
                    }
                });
    }

    /** A connection factory for this node (guest/guest), recovering every 200 ms as the suites' do. */
    ConnectionFactory factory() {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost("127.0.0.1");
        f.setPort(port);
        f.setUsername("guest");
        f.setPassword("guest");
        f.setNetworkRecoveryInterval(200);
        return f;
    }

    /** Runs {@code work} on a connection of its own to this node, without recovery. */
    void admin(RabbitTestTransport.OnChannel work) {
        ConnectionFactory f = factory();
        f.setAutomaticRecoveryEnabled(false);
        try (var c = f.newConnection("drill-admin"); var ch = c.createChannel()) {
            work.run(ch);
        } catch (IOException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("RabbitMQ node " + name + ": " + e.getMessage(), e);
        }
    }

    /** Kills the node as {@code kill -9} does: the Erlang VM and every process it started. */
    void kill() throws InterruptedException {
        if (process == null) {
            return;
        }
        // the tree is taken before the kill: the processes it leaves behind are no longer the script's descendants
        List<ProcessHandle> tree = process.descendants().toList();
        tree.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
        for (ProcessHandle p : tree) {
            p.onExit().join();
        }
        process = null;
    }

    /**
     * Stops the node as its service manager does ({@code SIGTERM}): it shuts down cleanly, with what it holds in
     * memory written to its data.
     */
    void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        process.destroy();
        if (!process.waitFor(STARTUP.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("RabbitMQ node " + name + " did not stop within " + STARTUP + " of a"
                    + " SIGTERM; see " + dir.resolve("node.log"));
        }
        process = null;
    }

    /** Starts the stopped or killed node again on its data, and waits until it takes connections. */
    void restart() {
        launch();
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
