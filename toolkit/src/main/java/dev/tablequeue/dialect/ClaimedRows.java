package dev.tablequeue.dialect;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Record;

/**
 * How the caller of a claim reads the rows it takes: the runtime reads deliveries, the contract suites column
 * maps. A claim hands each row to it as its statement returns it, or as the service's own fetch read it.
 *
 * @param <R> what a claimed row is read as
 */
public interface ClaimedRows<R> {
    /** Every row of {@code rs}. */
    default List<R> readAll(ResultSet rs) throws SQLException {
        List<R> all = new ArrayList<>();
        while (rs.next()) {
            all.add(read(rs));
        }
        return all;
    }

    /** The current row of {@code rs}. */
    R read(ResultSet rs) throws SQLException;

    /** A row the service's own fetch read; {@code stamped} where the claim counted its attempt. */
    R fromRecord(Record record, boolean stamped);

    /** The id of a claimed row, in the Java type of its column. */
    Object id(R row);

    /** What stands for a claimed {@code id} the fetch found no row for, failing with {@code failure}. */
    R unfetched(Object id, String failure);
}
