package dev.tablequeue.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reports built by hand, with known figures, for the writers' tests. */
final class Fixtures {
    static final double BYTES_PER_MESSAGE = 1_500;
    private static final long MESSAGES = 10_000;

    private Fixtures() {}

    /** A measurement of {@link #MESSAGES} messages at {@code perSecond}. */
    static Measurement at(double perSecond) {
        long nanos = Math.round(MESSAGES / perSecond * 1e9);
        return new Measurement(MESSAGES, nanos, Math.round(MESSAGES * BYTES_PER_MESSAGE));
    }

    /** A PostgreSQL row lock consumption case with tablequeue's and raw JDBC's rates, round by round. */
    static CaseResult rowLockCase(int workers, List<Double> tablequeue, List<Double> raw) {
        return consume(Databases.POSTGRES, Forms.ROW_LOCK, workers, tablequeue, raw);
    }

    static CaseResult consume(String database, String form, int workers, List<Double> tablequeue, List<Double> raw) {
        CaseResult c = new CaseResult(database, Scenarios.CONSUME, form, workers);
        c.messages(MESSAGES);
        c.contender(CaseResult.RAW);
        c.contender(CaseResult.TABLEQUEUE);
        tablequeue.forEach(r -> c.add(CaseResult.TABLEQUEUE, at(r)));
        raw.forEach(r -> c.add(CaseResult.RAW, at(r)));
        return c;
    }

    /**
     * A report with PostgreSQL row lock at 1 and 8 workers (0.5 and 0.95 of raw), db-scheduler at 8 workers
     * (4,000 msg/s against tablequeue's 7,600), a lease case at 8 whose tablequeue failed, and latencies.
     */
    static BenchReport report() {
        List<CaseResult> cases = new ArrayList<>();
        cases.add(rowLockCase(1, List.of(2_000.0, 2_100.0, 1_900.0), List.of(4_000.0, 4_200.0, 3_800.0)));
        cases.add(rowLockCase(8, List.of(7_600.0, 7_700.0, 7_500.0), List.of(8_000.0, 8_100.0, 7_900.0)));
        CaseResult lease = consume(Databases.POSTGRES, Forms.LEASE, 8, List.of(), List.of(5_000.0));
        lease.fail(CaseResult.TABLEQUEUE, "timed out | after 60 s");
        cases.add(lease);
        CaseResult peer = new CaseResult(Databases.POSTGRES, Scenarios.CONSUME, Forms.DB_SCHEDULER, 8);
        peer.messages(MESSAGES);
        peer.add(CaseResult.DB_SCHEDULER, at(4_000.0));
        cases.add(peer);
        cases.add(consume(Databases.SQLITE, Forms.ADVISORY, 1, List.of(3_000.0), List.of(3_300.0)));
        List<Double> notify = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            notify.add(i / 10.0);
        }
        List<LatencyResult> latencies = List.of(
                new LatencyResult(Databases.POSTGRES, Wakeups.LISTEN_NOTIFY, notify),
                new LatencyResult(Databases.POSTGRES, String.format(Wakeups.POLLING, 100), List.of(40.0, 60.0)));
        Map<String, Map<String, String>> settings = new LinkedHashMap<>();
        settings.put("postgres (tq_bench)", Map.of("synchronous_commit (bench database)", "off"));
        return new BenchReport("full", 3, 3.0, Instant.parse("2026-01-02T03:04:05Z"), Duration.ofSeconds(125),
                Map.of("cores", "2"), settings, cases, latencies, List.of(), List.of("a note on the method"));
    }
}
