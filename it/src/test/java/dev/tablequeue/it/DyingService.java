package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.DataType;
import org.jooq.Record;

/**
 * A service that claims one row and hangs in its handler, for a test to kill mid-delivery: run in a JVM
 * of its own by {@link ShutdownContract}. It prints {@code HOLDING <id>} once its handler holds a row.
 *
 * <p>Arguments: the JDBC URL, the table, the form, the time type ("timestamptz", "datetime" or
 * "sqlite"), and optionally an effects table: then the subscription is transactional, and its handler writes
 * a row into that table through the delivery's transaction before it hangs.
 */
public final class DyingService {
    private DyingService() {}

    /**
     * Runs this service in a JVM of its own with {@code args}, waits (up to a minute) until its handler holds a
     * row, then kills it and waits for it to end.
     */
    static void killWhileHolding(String... args) throws Exception {
        String javaBin = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(javaBin, "-cp", System.getProperty("java.class.path"),
                DyingService.class.getName()));
        command.addAll(List.of(args));
        Process dying = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(dying.getInputStream(), StandardCharsets.UTF_8));
            var holding = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        if (line.startsWith("HOLDING ")) {
                            return line;
                        }
                    }
                    return "exited";
                } catch (IOException e) {
                    return "failed: " + e;
                }
            });
            assertThat(holding.get(60, TimeUnit.SECONDS)).startsWith("HOLDING ");
        } finally {
            dying.destroyForcibly();
            assertThat(dying.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Form form = Form.valueOf(args[2]);
        DataType<? extends java.time.temporal.Temporal> time = switch (args[3]) {
            case "timestamptz" -> org.jooq.impl.SQLDataType.TIMESTAMPWITHTIMEZONE(6);
            case "datetime" -> org.jooq.impl.SQLDataType.LOCALDATETIME(6);
            default -> org.jooq.impl.SQLDataType.VARCHAR.asConvertedDataType(new dev.tablequeue.dialect.SqliteTime());
        };
        Jobs t = new Jobs(args[1], time);
        RoleBinding<Record> binding = Jobs.binding(t, form);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(4);
        HikariDataSource pool = new HikariDataSource(config);
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50))
                .lease(Duration.ofSeconds(1)).build();
        CountDownLatch never = new CountDownLatch(1);
        if (args.length > 4) {
            // transactional: the handler writes into the effects table args[4] through the delivery's
            // transaction, then hangs holding it
            var effects = org.jooq.impl.DSL.table(org.jooq.impl.DSL.name(args[4]));
            broker.subscribe(InboxQueue.of(binding, "emails")).bytes().transactional().handle((payload, delivery) -> {
                delivery.tx().insertInto(effects, org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("n")),
                        org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("attempt"))).values(0, -1).execute();
                System.out.println("HOLDING " + delivery.id());
                System.out.flush();
                never.await();
                throw new IllegalStateException("unreachable: the process is killed while it holds the row");
            });
            broker.start();
            never.await();
            return;
        }
        broker.subscribe(InboxQueue.of(binding, "emails")).bytes().handle((payload, delivery) -> {
            System.out.println("HOLDING " + delivery.id());
            System.out.flush();
            never.await();
            throw new IllegalStateException("unreachable: the process is killed while it holds the row");
        });
        broker.start();
        never.await();
    }
}
