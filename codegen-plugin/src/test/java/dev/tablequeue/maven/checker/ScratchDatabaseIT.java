package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.maven.Protocol;
import dev.tablequeue.maven.Requests;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The scratch database a check makes on a shared server: a name of its own, and gone afterwards, also on failure. */
class ScratchDatabaseIT {
    private static final Pattern MADE = Pattern.compile("scratch database (tqcheck_[0-9a-f]{16}) made");

    @TempDir
    Path work;

    /**
     * The administrative URL of the test kit's {@code engine} server: the kit finds it (and skips the test where
     * there is none, or fails it under {@code TABLEQUEUE_REQUIRE_LIVE=1}) by making a database of its own there,
     * dropped again at once.
     */
    private static String admin(Engine engine) {
        try (FreshDatabase probe = FreshDatabase.create(engine, "scratch_probe")) {
            return probe.adminUrl();
        }
    }

    private static boolean exists(Engine engine, String admin, String name) throws SQLException {
        String sql = engine == Engine.POSTGRES
                ? "select count(*) from pg_database where datname = ?"
                : "select count(*) from information_schema.schemata where schema_name = ?";
        try (Connection c = DriverManager.getConnection(admin); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Engine.class, names = {"POSTGRES", "MARIADB"})
    void the_scratch_database_is_dropped_when_its_migrations_fail(Engine engine) throws Exception {
        String admin = admin(engine);

        List<String> report = CheckerRun.run(Requests.write(work, admin, null, "classpath:fixture/broken"));

        String name = report.stream().map(MADE::matcher).filter(Matcher::find).map(m -> m.group(1)).findFirst()
                .orElseThrow(() -> new AssertionError("no scratch database was made: " + report));
        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR, "")) && l.contains("do not apply"));
        assertThat(report).anyMatch(l -> l.endsWith("scratch database " + name + " dropped"));
        assertThat(exists(engine, admin, name)).as("database %s after the check", name).isFalse();
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "1 0"));
    }
}
