package dev.tablequeue.internal;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** Binds a built statement's params onto a JDBC {@link PreparedStatement}, in the statement's order. */
public final class StatementBinder {
    private StatementBinder() {}

    /** Sets every {@code ?} of {@code ps}, prepared from {@code statement}, from {@code binds}. */
    public static void bind(PreparedStatement ps, Statement statement, Binds binds, QueueDialect dialect)
            throws SQLException {
        List<Param> params = statement.params();
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, binds.valueOf(params.get(i), dialect));
        }
    }
}
