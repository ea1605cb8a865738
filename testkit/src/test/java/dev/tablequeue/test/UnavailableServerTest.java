package dev.tablequeue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.opentest4j.TestAbortedException;

/** What a test class sees where no server can be found: a skip that says what to set, or a failure. */
class UnavailableServerTest {
    private static Servers.Server none(Engine engine, String image) {
        throw new Servers.NoServer("no " + engine + " server (as the kit would say)");
    }

    static class Skipping {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.MYSQL)
                .finding(UnavailableServerTest::none, () -> false).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    static class Failing {
        @RegisterExtension
        static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.MYSQL)
                .finding(UnavailableServerTest::none, () -> true).build();

        @Test
        void never_runs() {
            throw new AssertionError("ran without a database");
        }
    }

    private static List<Event> classEvents(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute().containerEvents()
                .list().stream().filter(e -> e.getTestDescriptor().getSource()
                        .filter(source -> source instanceof ClassSource c && c.getJavaClass() == fixture).isPresent())
                .toList();
    }

    @Test
    void a_class_without_a_server_is_skipped_with_what_to_set() {
        List<Event> events = classEvents(Skipping.class);

        Event finished = events.stream().filter(e -> e.getType() == EventType.FINISHED).findFirst().orElseThrow();
        Throwable why = finished.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
        assertThat(why).isInstanceOf(TestAbortedException.class)
                .hasMessage("UnavailableServerTest$Skipping: no MYSQL server (as the kit would say)");
    }

    @Test
    void under_require_live_a_class_without_a_server_fails_saying_so() {
        List<Event> events = classEvents(Failing.class);

        Event finished = events.stream().filter(e -> e.getType() == EventType.FINISHED).findFirst().orElseThrow();
        var result = finished.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow();
        assertThat(result.getStatus()).isEqualTo(org.junit.platform.engine.TestExecutionResult.Status.FAILED);
        assertThat(result.getThrowable().orElseThrow()).isInstanceOf(IllegalStateException.class)
                .hasMessage("UnavailableServerTest$Failing: no MYSQL server (as the kit would say) (TABLEQUEUE_REQUIRE_LIVE=1 makes this a"
                        + " failure)");
    }
}
