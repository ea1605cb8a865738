package db.migration;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/** A Java-based migration, built against Boot's Flyway 11: the check names it in a warning and does not run it. */
public class V3__Backfill extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws Exception {
        try (Statement s = context.getConnection().createStatement()) {
            s.execute("UPDATE jobs SET attempt = 1 WHERE attempt IS NULL");
        }
    }
}
