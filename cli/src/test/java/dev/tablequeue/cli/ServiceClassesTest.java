package dev.tablequeue.cli;

import static dev.tablequeue.cli.ServiceJars.cli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.cli.ServiceJars.Run;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.JobsTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command finds a binding among a service's classes as they are shipped: a classes folder, a plain jar, a
 * Spring Boot jar; beside an outbox binding; beside a field whose type the class path lacks.
 */
class ServiceClassesTest {
    /** The service's constants: its queue's binding, its outbox's, and a name that is neither. */
    private static final String SHOP_QUEUES = """
            package acme;

            import dev.tablequeue.binding.Form;
            import dev.tablequeue.binding.RoleBinding;
            import dev.tablequeue.outbox.OutboxBinding;
            import dev.tablequeue.test.Engine;
            import dev.tablequeue.test.contract.Jobs;
            import dev.tablequeue.test.contract.JobsTables;
            import org.jooq.Record;

            public final class ShopQueues {
                private static final Jobs TABLE = new Jobs(acme.lib.Names.jobs(), JobsTables.timeType(Engine.SQLITE));
                private static final Jobs OUTBOX_TABLE = new Jobs("shop_outbox", JobsTables.timeType(Engine.SQLITE));

                public static final RoleBinding<Record> JOBS = Jobs.binding(TABLE, Form.LEASE);
                public static final OutboxBinding<Record> OUTBOX =
                        OutboxBinding.of(OUTBOX_TABLE, OUTBOX_TABLE.ID, OUTBOX_TABLE.NOTE, OUTBOX_TABLE.PAYLOAD).build();
                public static final String NOT_A_BINDING = "shop";

                private ShopQueues() {}
            }
            """;

    /** A library of the service's, which a Boot jar nests in BOOT-INF/lib. */
    private static final String NAMES = """
            package acme.lib;

            public final class Names {
                private Names() {}

                public static String jobs() {
                    return "shop_jobs";
                }
            }
            """;

    @TempDir
    Path dir;

    private ServiceJars jars;
    private String url;

    @BeforeEach
    void aShopDatabase() throws Exception {
        jars = new ServiceJars(dir);
        url = "jdbc:sqlite:" + dir.resolve("shop.db");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.execute(JobsTables.ddl(Engine.SQLITE, "shop_jobs"));
            s.execute("INSERT INTO shop_jobs (grp, payload) VALUES ('emails', x'00'), ('emails', x'01')");
        }
    }

    private Run stats(Path classPath, String binding) {
        return cli("stats", "--url", url, "--classpath", classPath.toString(), "--binding", binding, "--json");
    }

    @Test
    void a_constants_class_that_also_holds_an_outbox_binding_gives_its_role_binding() throws Exception {
        Path lib = jars.compile("lib", Map.of("acme.lib.Names", NAMES));
        Path classes = jars.compile("classes", Map.of("acme.ShopQueues", SHOP_QUEUES), lib);

        Run run = stats(jars.jar("shop.jar", both(lib, classes)), "acme.ShopQueues#JOBS");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"table\" : \"shop_jobs\"").contains("\"pending\" : 2");
    }

    @Test
    void a_spring_boot_jar_is_read_with_its_classes_and_its_nested_libraries() throws Exception {
        Path lib = jars.compile("lib", Map.of("acme.lib.Names", NAMES));
        Path classes = jars.compile("classes", Map.of("acme.ShopQueues", SHOP_QUEUES), lib);
        Path boot = jars.bootJar("shop-boot.jar", classes, jars.jar("names-1.0.jar", lib));

        Run run = stats(boot, "acme.ShopQueues#JOBS");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"table\" : \"shop_jobs\"").contains("\"pending\" : 2");
    }

    @Test
    void a_spring_boot_jar_is_unpacked_for_the_run_only() throws Exception {
        Path lib = jars.compile("lib", Map.of("acme.lib.Names", NAMES));
        Path classes = jars.compile("classes", Map.of("acme.ShopQueues", SHOP_QUEUES), lib);
        Path boot = jars.bootJar("shop-boot.jar", classes, jars.jar("names-1.0.jar", lib));
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));

        long before = unpacked(tmp);
        Run run = stats(boot, "acme.ShopQueues#JOBS");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(unpacked(tmp)).isEqualTo(before);
    }

    @Test
    void a_wrong_field_lists_the_role_bindings_the_class_holds() throws Exception {
        Path lib = jars.compile("lib", Map.of("acme.lib.Names", NAMES));
        Path classes = jars.compile("classes", Map.of("acme.ShopQueues", SHOP_QUEUES), lib);
        Path boot = jars.bootJar("shop-boot.jar", classes, jars.jar("names-1.0.jar", lib));

        Run missing = stats(boot, "acme.ShopQueues#EMAILS");
        Run outbox = stats(boot, "acme.ShopQueues#OUTBOX");
        Run noField = stats(boot, "acme.ShopQueues");

        assertThat(missing.code()).isEqualTo(TableQueueCli.FAILED);
        assertThat(missing.err()).isEqualTo("tablequeue: --binding acme.ShopQueues#EMAILS: class acme.ShopQueues has"
                + " no public static field EMAILS; its RoleBinding constants: JOBS\n");
        assertThat(outbox.err()).isEqualTo("tablequeue: --binding acme.ShopQueues#OUTBOX: field OUTBOX holds a"
                + " dev.tablequeue.outbox.OutboxBinding, not a RoleBinding; its RoleBinding constants: JOBS\n");
        assertThat(noField.err()).isEqualTo("tablequeue: --binding takes CLASS#FIELD, a static RoleBinding constant;"
                + " was 'acme.ShopQueues'; its RoleBinding constants: JOBS\n");
    }

    @Test
    void a_field_whose_type_is_missing_does_not_hide_the_binding_beside_it() throws Exception {
        Path gone = jars.compile("gone", Map.of("acme.lib.Gone", "package acme.lib; public final class Gone {}"));
        Path classes = jars.compile("classes", Map.of("acme.Mixed", """
                package acme;

                public final class Mixed {
                    public static final dev.tablequeue.binding.RoleBinding<org.jooq.Record> JOBS =
                            dev.tablequeue.test.contract.Jobs.binding(new dev.tablequeue.test.contract.Jobs("shop_jobs",
                                    dev.tablequeue.test.contract.JobsTables.timeType(dev.tablequeue.test.Engine.SQLITE)),
                                    dev.tablequeue.binding.Form.LEASE);
                    public static acme.lib.Gone unset;
                }
                """), gone);

        Run run = stats(jars.jar("mixed.jar", classes), "acme.Mixed#JOBS");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"pending\" : 2");
    }

    private Path both(Path a, Path b) throws Exception {
        Path into = Files.createDirectories(dir.resolve("both"));
        for (Path from : new Path[] {a, b}) {
            try (Stream<Path> files = Files.walk(from)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Path to = into.resolve(from.relativize(f).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        return into;
    }

    private static long unpacked(Path tmp) throws Exception {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("tablequeue-cli-")).count();
        }
    }
}
