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

        new CheckerLaunch(Requests.testClasspath(), Requests.checkerClasspath(), request, inProcess::add).inProcess();
        int exit = new CheckerLaunch(Requests.testClasspath(), Requests.checkerClasspath(), request, forked::add)
                .forked(Path.of(System.getProperty("java.home"), "bin", "java").toString());

        assertThat(exit).isZero();
        assertThat(report(inProcess)).contains(CHECKED).endsWith(Protocol.line(Protocol.RESULT, "0 0"));
        assertThat(report(forked)).isEqualTo(report(inProcess));
    }

    /** The jar (or classes folder) {@code type} comes from. */
    private static java.io.File source(Class<?> type) throws Exception {
        return new java.io.File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void the_checker_takes_flyway_and_drivers_from_its_own_jars_and_jooq_and_the_toolkit_from_the_projects()
            throws Exception {
        List<java.io.File> both = List.of(source(org.flywaydb.core.Flyway.class), source(org.sqlite.JDBC.class),
                source(org.jooq.impl.DSL.class), source(dev.tablequeue.binding.RoleBinding.class));

        try (CheckerLoader loader = CheckerLoader.of(both, both)) {
            ClassLoader project = loader.getParent();

            assertThat(loader.loadClass("org.flywaydb.core.Flyway").getClassLoader()).isSameAs(loader);
            assertThat(loader.loadClass("org.sqlite.JDBC").getClassLoader()).isSameAs(loader);
            assertThat(project.loadClass("org.flywaydb.core.Flyway")).isNotSameAs(
                    loader.loadClass("org.flywaydb.core.Flyway"));
            assertThat(loader.loadClass("org.jooq.impl.DSL").getClassLoader()).isSameAs(project);
            assertThat(loader.loadClass("dev.tablequeue.binding.RoleBinding").getClassLoader()).isSameAs(project);
            assertThat(loader.loadClass("java.sql.Connection")).isSameAs(java.sql.Connection.class);
        }
    }

    @Test
    void in_process_the_checker_leaves_the_callers_context_class_loader_as_it_was() throws Exception {
        Path request = Requests.write(work, null, null, "classpath:fixture/sqlite");
        ClassLoader before = Thread.currentThread().getContextClassLoader();

        new CheckerLaunch(Requests.testClasspath(), Requests.checkerClasspath(), request, line -> {}).inProcess();

        assertThat(Thread.currentThread().getContextClassLoader()).isSameAs(before);
    }
}
