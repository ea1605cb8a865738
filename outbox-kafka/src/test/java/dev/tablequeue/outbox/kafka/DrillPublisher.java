package dev.tablequeue.outbox.kafka;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.outbox.Outbox;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;

/**
 * A service that publishes to Kafka through the outbox until it is killed, run in a JVM of its own by
 * {@link KafkaKillDrillContract}. Its threads each run transactions that write a row of the service's own data
 * ({@code n}) and publish message {@code n} keyed by {@code n % 8}; every tenth transaction ({@code n % 10 == 7})
 * fails after its publish and rolls back. Each record is done on Kafka's acknowledgement (the transport's
 * default), so a kill finds records in every state: being written, committed and not yet sent, sent and not yet
 * acknowledged, acknowledged and not yet marked, marked.
 *
 * <p>Arguments: the JDBC URL, the time type's name, the record table, the data table, the topic, the bootstrap
 * servers, the publishing threads, the transactions to run in all.
 */
public final class DrillPublisher {
    private DrillPublisher() {}

    /** Whether transaction {@code n} rolls back after its publish. */
    static boolean rollsBack(int n) {
        return n % 10 == 7;
    }

    public static void main(String[] args) throws Exception {
        KafkaDatabase database = KafkaDatabase.ofTimeType(args[1]);
        Records records = new Records(args[2], database);
        String data = args[3];
        String topic = args[4];
        int threads = Integer.parseInt(args[6]);
        int total = Integer.parseInt(args[7]);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(args[0]);
        config.setMaximumPoolSize(threads + 2);
        if (database == KafkaDatabase.SQLITE) {
            config.addDataSourceProperty("busy_timeout", "10000");
        }
        HikariDataSource pool = new HikariDataSource(config);
        Outbox outbox = Outbox.builder(pool).register(topic, records.binding().build()).build();
        KafkaTransport kafka = KafkaTransport.builder(args[5]).sendTimeout(Duration.ofSeconds(10))
                .publishMiddleware(outbox.publishMiddleware()).build();
        DSLContext jooq = DSL.using(new DefaultConfiguration().set(pool).set(database.sqlDialect())
                .set(outbox.transactionListener()));
        String insert = "INSERT INTO " + data + " (n) VALUES (?)";
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Thread.ofPlatform().name("publisher-" + t).start(() -> {
                try {
                    for (int n = next.getAndIncrement(); n < total; n = next.getAndIncrement()) {
                        int number = n;
                        try {
                            jooq.transaction(cfg -> {
                                DSLContext tx = DSL.using(cfg);
                                tx.execute(insert, String.valueOf(number));
                                kafka.publishKeyed(tx, topic, "key-" + number % 8,
                                        ("m" + number).getBytes(StandardCharsets.UTF_8));
                                if (rollsBack(number)) {
                                    throw new RolledBack();
                                }
                            });
                        } catch (RolledBack expected) {
                            // the service's own failure after its publish: the transaction rolled back
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        // a drill that ends without killing this JVM (its own JVM killed) closes the input: this JVM goes too
        Thread.ofPlatform().daemon(true).name("orphan-watch").start(() -> {
            try {
                while (System.in.read() != -1) {
                    // the drill writes nothing; the read ends when the drill's end of the pipe closes
                }
            } catch (java.io.IOException e) {
                // the pipe broke: the drill is gone
            }
            Runtime.getRuntime().halt(3);
        });
        System.out.println("PUBLISHING " + threads + " threads, " + total + " transactions");
        System.out.flush();
        done.await();
        // all published before the drill killed it: the drill then fails, asking for more transactions
        System.out.println("DONE");
        System.out.flush();
        new CountDownLatch(1).await();
    }

    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RolledBack() {
            super("rolled back on purpose", null, false, false);
        }
    }
}
