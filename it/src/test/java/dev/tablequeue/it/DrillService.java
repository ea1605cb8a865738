package dev.tablequeue.it;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.ShutdownReport;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.contract.Jobs;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/**
 * A service that consumes a {@link Jobs} table until it is killed or its standard input ends, run in a JVM of
 * its own by the crash drill of {@link DrillContract}. Each delivery's handler first writes a row into the
 * deliveries table (job id, attempt, this JVM's name, the time in microseconds) on an auto-commit connection,
 * so the record survives a kill that comes after it; it then works for a while and acknowledges.
 *
 * <p>Once booted it prints {@code READY} and waits for a first line on its standard input before it starts
 * its broker, so the drill boots a JVM ahead and a restart costs no JVM start. When its standard input ends
 * it closes its broker and prints {@code CLOSED} and the shutdown report.
 *
 * <p>Arguments: the JDBC URL, the table, the form, the time type ("timestamptz", "datetime" or "sqlite"), the
 * JVM's name, the workers, the lease in milliseconds, each job's work in milliseconds, the deliveries table.
 */
public final class DrillService {
    private DrillService() {}

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Form form = Form.valueOf(args[2]);
        DataType<? extends Temporal> time = switch (args[3]) {
            case "timestamptz" -> SQLDataType.TIMESTAMPWITHTIMEZONE(6);
            case "datetime" -> SQLDataType.LOCALDATETIME(6);
            default -> SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        };
        Jobs t = new Jobs(args[1], time);
        String jvm = args[4];
        int workers = Integer.parseInt(args[5]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[6]));
        long work = Long.parseLong(args[7]);
        String deliveries = args[8];

        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        // room for every worker's connection (advisory), the claim's, the handlers' own inserts and the keeper's
        config.setMaximumPoolSize(2 * workers + 2);
        config.setPoolName("drill-" + jvm);
        if (url.startsWith("jdbc:sqlite:")) {
            config.setConnectionInitSql("PRAGMA busy_timeout = 10000");
        }
        try (HikariDataSource pool = new HikariDataSource(config)) {
            QueueBroker broker = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50)).lease(lease)
                    .drainTimeout(Duration.ofSeconds(20)).build();
            String record = "insert into " + deliveries + " (job_id, attempt, jvm, at_us) values (?, ?, ?, ?)";
            broker.subscribe(InboxQueue.of(Jobs.binding(t, form), "bulk")).payload(BrokerFixture.Job.class)
                    .workers(workers).handle((job, d) -> {
                        d.db().execute(record, d.id(t.ID), d.attempt().orElse(0), jvm,
                                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()));
                        // the job's work, during which a kill finds it in work
                        Thread.sleep(work);
                        return Outcome.ack();
                    });
            // booted, it waits for the drill's word to start consuming: a restart then costs no JVM start
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            System.out.println("READY " + jvm + " after " + ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
            System.out.flush();
            if (in.readLine() == null) {
                return;
            }
            broker.start();
            System.out.println("STARTED " + jvm);
            System.out.flush();
            while (in.readLine() != null) {
                // runs until killed, or until the drill ends its input
            }
            ShutdownReport report = broker.close();
            System.out.println("CLOSED " + jvm + " " + report);
        }
    }
}
