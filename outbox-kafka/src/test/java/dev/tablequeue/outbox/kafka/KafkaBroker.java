package dev.tablequeue.outbox.kafka;

import dev.tablequeue.test.FreshDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Assumptions;

/**
 * A real Kafka broker for the tests: one KRaft node (broker and controller in one), forked into a JVM of its own
 * from the Apache Kafka classes on the test class path ({@code kafka.Kafka}), listening on 127.0.0.1 only, on two
 * free ports picked at start, with its log in a temporary folder deleted at {@link #close()}. A forked JVM, so a
 * test can kill it (as {@code kill -9} does) and start it again on the same ports and log, as a broker restart.
 *
 * <p>Where it cannot start, the test is skipped, unless {@code TABLEQUEUE_REQUIRE_LIVE=1}: then it fails.
 */
final class KafkaBroker implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final int brokerPort;
    private final int controllerPort;
    private final Path config;
    private Process process;

    private KafkaBroker() throws IOException {
        this.dir = Files.createTempDirectory("tablequeue-kafka-");
        this.brokerPort = freePort();
        this.controllerPort = freePort();
        this.config = dir.resolve("server.properties");
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dir.resolve("log").toString());
        p.put("num.partitions", "3");
        p.put("auto.create.topics.enable", "false");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "3");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "3");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("log.flush.interval.messages", "1");
        try (var out = Files.newOutputStream(config)) {
            p.store(out, "tablequeue test broker");
        }
    }

    /** Formats a fresh log and starts the broker; skips (or, where live servers are required, fails) the test. */
    static KafkaBroker start() {
        KafkaBroker broker = null;
        try {
            broker = new KafkaBroker();
            broker.format();
            broker.launch();
            return broker;
        } catch (Exception e) {
            String log = broker == null ? "" : broker.logTail();
            if (broker != null) {
                broker.close();
            }
            if (FreshDatabase.liveRequired()) {
                throw new IllegalStateException("the test Kafka broker did not start (TABLEQUEUE_REQUIRE_LIVE=1): "
                        + e.getMessage() + log, e);
            }
            Assumptions.abort("the test Kafka broker did not start: " + e.getMessage() + log);
            throw new AssertionError(e);
        }
    }

    /** The bootstrap servers clients connect to. */
    String bootstrap() {
        return "127.0.0.1:" + brokerPort;
    }

    /** Creates {@code topic} with {@code partitions} partitions. */
    void createTopic(String topic, int partitions) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + topic + ": " + e.getMessage(), e);
        }
    }

    /** Kills the broker as {@code kill -9} does, and waits for its process to end. */
    void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the broker again on the same ports and log, after {@link #kill()}. */
    void restart() {
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException("the test Kafka broker did not start again" + logTail(), e);
        }
    }

    private void format() throws IOException, InterruptedException {
        Process f = java("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
                config.toString()).redirectOutput(dir.resolve("format.log").toFile()).start();
        if (!f.waitFor(60, TimeUnit.SECONDS) || f.exitValue() != 0) {
            f.destroyForcibly();
            throw new IOException("formatting the broker's log failed: "
                    + Files.readString(dir.resolve("format.log")));
        }
    }

    private void launch() throws IOException {
        process = java("kafka.Kafka", config.toString())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile())).start();
        // a test JVM that ends without closing the broker (killed by a timeout) takes it along
        Process started = process;
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("the broker's process exited with " + process.exitValue());
            }
            try (Admin admin = admin()) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                last = e;
            }
        }
        process.destroyForcibly();
        throw new IOException("the broker did not answer within " + START_TIMEOUT + ": " + last, last);
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000));
    }

    /**
     * A JVM on the test's own class path (surefire's manifest jar names every jar; the JVM follows its Class-Path),
     * small and quick to start, logging warnings only.
     */
    private ProcessBuilder java(String main, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
    }

    private String logTail() {
        try {
            Path log = dir.resolve("broker.log");
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log);
            return "\n--- broker log (last lines) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops the broker and deletes its log. */
    @Override
    public void close() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind harms nothing
        }
    }
}
