package dev.tablequeue.dashboard;

import dev.tablequeue.binding.Form;
import dev.tablequeue.dialect.MySqlDialect;
import dev.tablequeue.dialect.PostgresDialect;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.SqliteDialect;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.ContractDatabase;
import dev.tablequeue.test.contract.JobsTables;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.temporal.Temporal;
import java.util.EnumSet;
import java.util.Set;
import org.jooq.DataType;

/** The databases the dashboard's browser suite runs on, as the kit's fixture takes them. */
enum DashboardDatabase implements ContractDatabase {
    POSTGRES(Engine.POSTGRES, EnumSet.allOf(Form.class)),
    MARIADB(Engine.MARIADB, EnumSet.allOf(Form.class)),
    SQLITE(Engine.SQLITE, EnumSet.of(Form.LEASE, Form.ADVISORY));

    private final Engine engine;
    private final Set<Form> forms;

    DashboardDatabase(Engine engine, Set<Form> forms) {
        this.engine = engine;
        this.forms = forms;
    }

    @Override
    public Engine engine() {
        return engine;
    }

    @Override
    public QueueDialect dialect(Connection connection) throws SQLException {
        return switch (engine) {
            case POSTGRES -> new PostgresDialect();
            case SQLITE -> new SqliteDialect();
            default -> {
                DatabaseMetaData meta = connection.getMetaData();
                yield MySqlDialect.forServer(meta.getDatabaseProductName(), meta.getDatabaseProductVersion());
            }
        };
    }

    @Override
    public DataType<? extends Temporal> timeType() {
        return JobsTables.timeType(engine);
    }

    @Override
    public String createTable(String name) {
        return JobsTables.ddl(engine, name);
    }

    @Override
    public Set<Form> forms() {
        return EnumSet.copyOf(forms);
    }
}
