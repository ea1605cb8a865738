package dev.tablequeue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * What a test class sees where its server cannot be found or reached: by default a failure that says what to set;
 * with the opt-in, a skip that JUnit reports and that prints its reason. The classes below run through the JUnit
 * Platform, as a service's build runs its own.
 */
class UnavailableServerTest {
    /** A server named by TABLEQUEUE_POSTGRES_URL on a port nothing listens on. */
    private static final String CLOSED_PORT = "jdbc:postgresql://127.0.0.1:1/postgres?user=postgres";

    private static Servers.Server none(Engine engine, String image) {
        throw new Servers.NoServer("no " + engine + " server (as the kit would say)");
    }

    private static Servers.Server closedPort(Engine engine, String image) {
        return Servers.find(engine, image, Map.of("TABLEQUEUE_POSTGRES_URL", CLOSED_PORT)::get, k -> null, () -> false);
    }

    static class ClosedPortByDefault {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.POSTGRES)
                .finding(UnavailableServerTest::closedPort, () -> false).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    static class ClosedPortOptedIntoSkipping {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.POSTGRES)
                .finding(UnavailableServerTest::closedPort, () -> true).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    static class NoServerByDefault {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.MYSQL)
                .finding(UnavailableServerTest::none, () -> false).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    static class NoServerOptedIntoSkipping {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.MYSQL)
                .finding(UnavailableServerTest::none, () -> true).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    /** The run of {@code fixture}, and what it printed on the error stream. */
    private record Ran(EngineExecutionResults results, String err) {
        List<Event> classEvents(Class<?> fixture, EventType type) {
            return results.containerEvents().list().stream().filter(e -> e.getType() == type)
                    .filter(e -> e.getTestDescriptor().getSource()
                            .filter(s -> s instanceof ClassSource c && c.getJavaClass() == fixture).isPresent())
                    .toList();
        }
    }

    private static Ran run(Class<?> fixture) {
        PrintStream was = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
                    .execute();
            return new Ran(results, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(was);
        }
    }

    private static Throwable failure(Ran ran, Class<?> fixture) {
        Event finished = ran.classEvents(fixture, EventType.FINISHED).getFirst();
        TestExecutionResult result = finished.getPayload(TestExecutionResult.class).orElseThrow();
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        return result.getThrowable().orElseThrow();
    }

    @Test
    void a_class_whose_server_url_is_unreachable_fails_naming_the_variable_the_property_and_testcontainers() {
        Ran ran = run(ClosedPortByDefault.class);

        assertThat(failure(ran, ClosedPortByDefault.class)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("UnavailableServerTest$ClosedPortByDefault: cannot create database ")
                .hasMessageContaining(" on the POSTGRES server of TABLEQUEUE_POSTGRES_URL (" + CLOSED_PORT + "): ")
                .hasMessageEndingWith(". Set TABLEQUEUE_POSTGRES_URL (or the system property tablequeue.postgres.url)"
                        + " to the administrative JDBC URL of a reachable POSTGRES server (one that may create and drop"
                        + " databases), or set neither and start Docker so that Testcontainers runs one; or set"
                        + " TABLEQUEUE_SKIP_UNREACHABLE=1 to skip these tests instead");
        assertThat(ran.results().testEvents().started().count()).isZero();
    }

    @Test
    void a_class_without_any_server_fails_by_default_saying_what_to_set() {
        Ran ran = run(NoServerByDefault.class);

        assertThat(failure(ran, NoServerByDefault.class)).isInstanceOf(IllegalStateException.class)
                .hasMessage("UnavailableServerTest$NoServerByDefault: no MYSQL server (as the kit would say). Set"
                        + " TABLEQUEUE_MYSQL_URL (or the system property tablequeue.mysql.url) to the administrative"
                        + " JDBC URL of a reachable MYSQL server (one that may create and drop databases), or set"
                        + " neither and start Docker so that Testcontainers runs one; or set"
                        + " TABLEQUEUE_SKIP_UNREACHABLE=1 to skip these tests instead");
    }

    @Test
    void with_the_opt_in_a_class_whose_server_url_is_unreachable_is_reported_skipped_and_prints_why() {
        Ran ran = run(ClosedPortOptedIntoSkipping.class);

        List<Event> skipped = ran.classEvents(ClosedPortOptedIntoSkipping.class, EventType.SKIPPED);
        assertThat(skipped).hasSize(1);
        String reason = skipped.getFirst().getPayload(String.class).orElseThrow();
        assertThat(reason).startsWith("UnavailableServerTest$ClosedPortOptedIntoSkipping skipped"
                + " (TABLEQUEUE_SKIP_UNREACHABLE=1): cannot connect to the POSTGRES server of TABLEQUEUE_POSTGRES_URL ("
                + CLOSED_PORT + "): ");
        assertThat(ran.err()).isEqualTo("tablequeue test kit: " + reason + System.lineSeparator());
        assertThat(ran.results().testEvents().started().count()).isZero();
        assertThat(ran.classEvents(ClosedPortOptedIntoSkipping.class, EventType.FINISHED)).isEmpty();
    }

    @Test
    void with_the_opt_in_a_class_without_any_server_is_reported_skipped_and_prints_why() {
        Ran ran = run(NoServerOptedIntoSkipping.class);

        List<Event> skipped = ran.classEvents(NoServerOptedIntoSkipping.class, EventType.SKIPPED);
        assertThat(skipped).hasSize(1);
        assertThat(skipped.getFirst().getPayload(String.class)).hasValue("UnavailableServerTest$NoServerOptedIntoSkipping"
                + " skipped (TABLEQUEUE_SKIP_UNREACHABLE=1): no MYSQL server (as the kit would say)");
        assertThat(ran.err()).contains("tablequeue test kit: UnavailableServerTest$NoServerOptedIntoSkipping skipped");
    }
}
