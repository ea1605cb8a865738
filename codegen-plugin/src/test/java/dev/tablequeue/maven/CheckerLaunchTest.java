package dev.tablequeue.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two ways the goal runs the checker give one report: in a class loader of its own, and in a forked JVM. */
class CheckerLaunchTest {
    private static final String CHECKED = Protocol.line(Protocol.INFO, Requests.FIXTURE
            + ".FixtureQueues.RENDER on sqlite: table \"fixture_jobs\": 9 statements prepared, 4 roles, 4 columns"
            + " and the jOOQ class checked");

    @TempDir
    Path work;

    private List<String> report(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith(Protocol.PREFIX)).toList();
    }

    @Test
    void the_checker_reports_the_same_in_process_as_in_a_forked_jvm() throws Exception {
        Path request = Requests.write(work, null, null, "classpath:fixture/sqlite");
        List<String> inProcess = Collections.synchronizedList(new ArrayList<>());
        List<String> forked = Collections.synchronizedList(new ArrayList<>());

        new CheckerLaunch(Requests.testClasspath(), request, inProcess::add).inProcess();
        int exit = new CheckerLaunch(Requests.testClasspath(), request, forked::add)
                .forked(Path.of(System.getProperty("java.home"), "bin", "java").toString());

        assertThat(exit).isZero();
        assertThat(report(inProcess)).contains(CHECKED).endsWith(Protocol.line(Protocol.RESULT, "0 0"));
        assertThat(report(forked)).isEqualTo(report(inProcess));
    }

    @Test
    void in_process_the_checker_leaves_the_callers_context_class_loader_as_it_was() throws Exception {
        Path request = Requests.write(work, null, null, "classpath:fixture/sqlite");
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        new CheckerLaunch(Requests.testClasspath(), request, line -> {}).inProcess();

        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }
}
