package dev.tablequeue.cli;

import static dev.tablequeue.cli.ServiceJars.cli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.cli.ServiceJars.Run;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every refusal of the command is one line on the error stream and exit code 1, never a stack trace. */
class RefusalsTest {
    @TempDir
    Path dir;

    private static void assertOneLineRefusal(Run run, String saying) {
        assertThat(run.code()).as(run.err()).isEqualTo(TableQueueCli.FAILED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).as(run.err()).hasSize(1).first().asString()
                .startsWith("tablequeue: ").contains(saying);
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Usage:");
    }

    @Test
    void a_missing_option_is_one_line_naming_it_and_exit_code_one() {
        assertOneLineRefusal(cli("stats", "--binding", "acme.Queues#JOBS"),
                "Missing required option: '--url=JDBC_URL' (see tablequeue stats --help)");
    }

    @Test
    void an_unknown_option_or_command_is_one_line_and_exit_code_one() {
        assertOneLineRefusal(cli("stats", "--url", "jdbc:sqlite:x.db", "--binding", "a.B#C", "--colour"),
                "Unknown option: '--colour'");
        assertOneLineRefusal(cli("statistics"), "Unmatched argument at index 0: 'statistics'");
    }

    @Test
    void a_malformed_value_is_one_line_and_exit_code_one() {
        assertOneLineRefusal(cli("purge", "--url", "jdbc:sqlite:x.db", "--binding", "a.B#C", "--queue", "emails",
                "--older-than", "a week"), "'a week' is not an age");
    }

    @Test
    void a_binding_that_is_not_class_and_field_is_one_line() {
        assertOneLineRefusal(cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--binding", "acme.Queues#"),
                "--binding takes CLASS#FIELD");
    }

    @Test
    void a_class_path_entry_that_does_not_exist_or_is_no_jar_is_one_line() throws Exception {
        Path notAJar = java.nio.file.Files.writeString(dir.resolve("notes.txt"), "not a jar");

        assertOneLineRefusal(cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--classpath",
                dir.resolve("missing.jar").toString(), "--binding", "acme.Queues#JOBS"), "which does not exist");
        assertOneLineRefusal(cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--classpath",
                notAJar.toString(), "--binding", "acme.Queues#JOBS"), "which is neither a folder nor a jar");
    }

    @Test
    void a_class_that_is_not_on_the_class_path_is_one_line_naming_the_option() {
        assertOneLineRefusal(cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--binding",
                "acme.Queues#JOBS"), "class acme.Queues is not on the class path (give the service's jar");
    }

    @Test
    void a_class_that_needs_a_class_the_class_path_lacks_is_one_line_naming_the_missing_class() throws Exception {
        ServiceJars jars = new ServiceJars(dir);
        Path gone = jars.compile("gone", Map.of("acme.lib.Gone",
                "package acme.lib; public final class Gone { public static Object binding() { return null; } }"));
        Path classes = jars.compile("classes", Map.of("acme.Needs",
                "package acme; public final class Needs { public static final Object JOBS = acme.lib.Gone.binding(); }"),
                gone);

        Run run = cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--classpath",
                jars.jar("needs.jar", classes).toString(), "--binding", "acme.Needs#JOBS");

        assertOneLineRefusal(run, "class acme.Needs needs class acme.lib.Gone, which is not on the class path");
    }

    @Test
    void a_class_whose_initialiser_throws_is_one_line_with_the_cause() throws Exception {
        ServiceJars jars = new ServiceJars(dir);
        Path classes = jars.compile("classes", Map.of("acme.Broken", """
                package acme;
                public final class Broken {
                    public static final Object JOBS = fail();
                    private static Object fail() {
                        throw new IllegalStateException("no table named jobs");
                    }
                }
                """));

        Run run = cli("stats", "--url", "jdbc:sqlite:" + dir.resolve("x.db"), "--classpath", classes.toString(),
                "--binding", "acme.Broken#JOBS");

        assertOneLineRefusal(run, "class acme.Broken did not initialise: java.lang.IllegalStateException: no table"
                + " named jobs");
    }
}
