package com.example.orders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker for the test: one KRaft node (broker and controller in one) started in a JVM of its own from
 * the Apache Kafka classes on the test class path ({@code kafka_2.13}, test scope, at Boot's Kafka version), on
 * 127.0.0.1 and two free ports, its log in a temporary folder deleted at {@link #close()}. No Docker.
 */
final class KafkaBroker implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final int port;
    private final Path config;
    private volatile Process process;
    private CompletableFuture<Void> started;

    private KafkaBroker() throws IOException {
        dir = Files.createTempDirectory("orders-kafka-");
        port = freePort();
        int controllerPort = freePort();
        config = dir.resolve("server.properties");
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dir.resolve("log").toString());
        p.put("auto.create.topics.enable", "false");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        try (var out = Files.newOutputStream(config)) {
            p.store(out, "orders test broker");
        }
        // the broker logs through the test's Logback: warnings only
        Files.writeString(dir.resolve("logback.xml"), """
                <configuration>
                  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d %level %logger: %msg%n</pattern></encoder>
                  </appender>
                  <root level="WARN"><appender-ref ref="out"/></root>
                </configuration>
                """);
    }

    /**
     * Formats a fresh log and starts the broker, in the background: the bootstrap address is known at once, so
     * that the service can start beside it; {@link #awaitStarted()} waits for the broker to answer.
     */
    static KafkaBroker launch() throws IOException {
        KafkaBroker broker = new KafkaBroker();
        broker.started = CompletableFuture.runAsync(() -> {
            try {
                Process format = broker.java("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                        "-c", broker.config.toString()).start();
                if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
                    format.destroyForcibly();
                    throw new IOException("formatting the broker's log failed: " + broker.log());
                }
                Process process = broker.java("kafka.Kafka", broker.config.toString()).start();
                broker.process = process;
                // a test JVM that ends without closing the broker (killed by a timeout) takes it along
                Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
                broker.awaitAnswer();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the broker started", e);
            }
        });
        return broker;
    }

    /** Waits for the broker launched by {@link #launch()} to answer; throws with its log where it did not. */
    void awaitStarted() throws Exception {
        try {
            started.get(2 * START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the test's Kafka broker did not start: " + e.getCause(), e.getCause());
        }
    }

    /** The bootstrap servers clients connect to. */
    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    /** Creates {@code topic} with {@code partitions} partitions. */
    void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private void awaitAnswer() throws IOException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("the broker exited with " + process.exitValue() + ": " + log());
            }
            try (Admin admin = admin()) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                last = e;   // not up yet: the next describe waits up to 5 s again
            }
        }
        throw new IOException("the broker did not answer within " + START_TIMEOUT + ": " + last + log(), last);
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000));
    }

    /** A small JVM on the test's own class path (surefire's manifest jar names every jar), logging warnings. */
    private ProcessBuilder java(String main, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlogback.configurationFile=" + dir.resolve("logback.xml"),
                "-cp", System.getProperty("java.class.path"), main));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile()))
                .directory(dir.toFile());
    }

    private String log() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("broker.log"));
            return "\n--- broker log (last lines) ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops the broker and deletes its log. */
    @Override
    public void close() {
        if (started != null) {
            started.cancel(true);
        }
        Process process = this.process;
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
            // a temporary folder left behind harms nothing
        }
    }
}
