package dev.tablequeue.outbox;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.transport.PublishMiddleware;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;

/**
 * A service that publishes one tracked order and hangs between the commit of its record and the send, for a
 * test to kill there: run in a JVM of its own by {@link #run}. It prints {@code COMMITTED <id>} once the record
 * has committed and the send is about to leave. On the table broker it publishes without a transaction (with
 * one, the send joins the transaction and there is no moment between the two); elsewhere, in a jOOQ
 * transaction whose commit the outbox waits for.
 *
 * <p>Arguments: the JDBC URL, the time type's name, the record table, the transport's label and its handle.
 */
public final class DyingPublisher {
    private DyingPublisher() {}

    public static void main(String[] args) throws Exception {
        OutboxDatabase database = OutboxDatabase.ofTimeType(args[1]);
        RecordTable records = new RecordTable(args[2], database.timeType());
        String kind = args[3];
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setMaximumPoolSize(4);
        HikariDataSource pool = new HikariDataSource(config);
        Outbox outbox = Outbox.builder(pool).register("orders", records.binding()).enabled(true).build();
        CountDownLatch never = new CountDownLatch(1);
        PublishMiddleware hang = (message, next) -> {
            System.out.println("COMMITTED " + message.headers().get(Outbox.ID_HEADER));
            System.out.flush();
            never.await();
        };
        var dsl = DSL.using(new DefaultConfiguration().set(pool).set(database.sqlDialect())
                .set(outbox.transactionListener()));
        switch (kind) {
            case "table" -> {
                QueueBroker broker = QueueBroker.builder(pool)
                        .route("*", new InboxTable(args[4], database.timeType()).binding())
                        .publishMiddleware(outbox.publishMiddleware()).publishMiddleware(hang).build();
                broker.publisher().publish(Message.of("orders", new OutboxFixture.Order(42)));
            }
            case "memory" -> {
                MemoryBroker broker = MemoryBroker.builder().publishMiddleware(outbox.publishMiddleware())
                        .publishMiddleware(hang).build();
                dsl.transaction(cfg -> broker.publish(DSL.using(cfg), "orders", new OutboxFixture.Order(42)));
            }
            default -> {
                RabbitTransport rabbit = RabbitTransport.builder(RabbitTestTransport.factory()).exchange(args[4])
                        .publishMiddleware(outbox.publishMiddleware()).publishMiddleware(hang).build();
                dsl.transaction(cfg -> rabbit.publish(DSL.using(cfg), "orders", new OutboxFixture.Order(42)));
            }
        }
        never.await();
    }

    /** Runs a dying publisher in a JVM of its own and kills it once its record has committed. */
    static void run(String url, OutboxDatabase database, RecordTable records, TestTransport.Kind kind, String handle)
            throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process dying = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                DyingPublisher.class.getName(), url, database.timeTypeName(), records.getName(), kind.label(),
                handle)
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(dying.getInputStream(),
                    StandardCharsets.UTF_8));
            var committed = CompletableFuture.supplyAsync(() -> {
                StringBuilder seen = new StringBuilder();
                try {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        if (line.startsWith("COMMITTED ")) {
                            return line;
                        }
                        seen.append(line).append('\n');
                    }
                    return "exited: " + seen;
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            assertThat(committed.get(90, SECONDS)).startsWith("COMMITTED ");
        } finally {
            dying.destroyForcibly();
            assertThat(dying.waitFor(30, SECONDS)).isTrue();
        }
    }
}
