package dev.tablequeue.it;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement PostgreSQL keeps prepared on one session, with how often it ran on a generic plan (one for any
 * parameters, kept) and on a custom one (made for the parameters of that execution), from
 * {@code pg_prepared_statements}. pgjdbc prepares a statement on the server from its fifth use.
 */
record PreparedPlans(String statement, long generic, long custom) {

    /** The statements prepared on {@code c}'s session that name the table {@code table}. */
    static List<PreparedPlans> naming(Connection c, String table) throws SQLException {
        List<PreparedPlans> plans = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT statement, generic_plans, custom_plans"
                + " FROM pg_prepared_statements WHERE statement LIKE ?")) {
            ps.setString(1, "%\"" + table + "\"%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    plans.add(new PreparedPlans(rs.getString(1), rs.getLong(2), rs.getLong(3)));
                }
            }
        }
        return plans;
    }
}
