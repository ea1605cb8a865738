package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.maven.Protocol;
import dev.tablequeue.maven.Requests;
import dev.tablequeue.testkit.LiveDatabase;
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

    private static String admin(LiveDatabase.Engine engine) {
        String url = engine.adminUrl();
        try {
            DriverManager.getConnection(url).close();
            return url;
        } catch (SQLException e) {
            if (LiveDatabase.liveRequired()) {
                fail(engine + " at " + url + " is not reachable (TABLEQUEUE_REQUIRE_LIVE=1): " + e.getMessage());
            }
            assumeTrue(false, engine + " at " + url + " is not reachable: " + e.getMessage());
            return null;
        }
    }

    private static boolean exists(LiveDatabase.Engine engine, String admin, String name) throws SQLException {
        String sql = engine == LiveDatabase.Engine.POSTGRES
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
    @EnumSource(value = LiveDatabase.Engine.class, names = {"POSTGRES", "MARIADB"})
    void the_scratch_database_is_dropped_when_its_migrations_fail(LiveDatabase.Engine engine) throws Exception {
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
