package dev.tablequeue.internal;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Record;
import org.jooq.impl.DSL;

/** The read of one claimed row by its id: the service's own fetch, or the dialect's. */
public final class RowFetch {
    private RowFetch() {}

    /**
     * Reads the row of {@code id} with the binding's own fetch where it has one, else with {@code fetchOne}; an
     * id without a row comes back as what stands for it ({@link ClaimedRows#unfetched}), failing to decode.
     */
    public static <R> List<R> fetch(Connection c, QueueDialect dialect, RoleBinding<?> binding, Statement fetchOne,
            Object id, ClaimedRows<R> rows) throws SQLException {
        List<R> fetched;
        if (binding.owns(Event.FETCH)) {
            fetched = new ArrayList<>();
            for (Record r : binding.own().fetch().fetch(DSL.using(c, dialect.sqlDialect()), List.of(id))) {
                fetched.add(rows.fromRecord(r, binding.form() != Form.ROW_LOCK));
            }
        } else {
            fetched = Jdbc.query(c, fetchOne, new Binds().ids(List.of(id)), dialect, rows::readAll);
        }
        if (fetched.isEmpty()) {
            return List.of(rows.unfetched(id, "claimed id " + id + " of table \"" + binding.tableName()
                    + "\" has no row in the fetch"));
        }
        return fetched;
    }
}
