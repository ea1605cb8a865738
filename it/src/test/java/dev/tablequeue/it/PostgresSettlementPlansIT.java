package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.dialect.QueueSettlements.Outcome;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.test.contract.Jobs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * How PostgreSQL plans the settlements of a group of rows. A statement over rows bound as arrays is planned
 * anew at each execution while its groups are smaller than PostgreSQL's guess at an array's length (ten), so
 * a group of fewer rows goes as a batch of the one-row statement, whose generic plan the server keeps; a group
 * of ten or more goes as the statement over rows, and its generic plan is kept too. Read from the session's
 * {@code pg_prepared_statements} (pgjdbc prepares a statement on the server from its fifth use).
 */
class PostgresSettlementPlansIT extends BrokerFixture {
    private static final int EXECUTIONS = 15;

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }

    @Test
    void groups_under_ten_rows_are_batches_of_the_one_row_statement_and_groups_of_ten_one_statement_on_a_kept_plan()
            throws SQLException, QueueSettlements.Failure {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ROW_LOCK);
        insertMany(t, "emails", EXECUTIONS * (3 + 12));
        List<Long> ids = ids(t);
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(true);
            QueueSettlements settlements = database().dialect(c).settlements(b, false, null);
            int next = 0;
            for (int i = 0; i < EXECUTIONS; i++) {
                assertThat(settlements.writeAll(c, acks(ids.subList(next, next + 3)), false)).isEmpty();
                next += 3;
            }
            List<PreparedPlans> small = PreparedPlans.naming(c, t.getName());
            assertThat(small).noneMatch(p -> p.statement().contains("unnest"));
            assertThat(small).filteredOn(p -> p.statement().startsWith("update")).singleElement()
                    .satisfies(p -> assertThat(p.generic()).isPositive());

            for (int i = 0; i < EXECUTIONS; i++) {
                assertThat(settlements.writeAll(c, acks(ids.subList(next, next + 12)), false)).isEmpty();
                next += 12;
            }
            assertThat(PreparedPlans.naming(c, t.getName())).filteredOn(p -> p.statement().contains("unnest")).singleElement()
                    .satisfies(p -> assertThat(p.generic()).isPositive());
        }
        assertThat(count(t)).isEqualTo(EXECUTIONS * (3 + 12));
    }

    private static List<Outcome> acks(List<Long> ids) {
        Instant now = Instant.now();
        List<Outcome> outcomes = new ArrayList<>();
        for (Long id : ids) {
            outcomes.add(new Outcome(Kind.ACK, new Binds().id(id).now(now)));
        }
        return outcomes;
    }

    private List<Long> ids(Jobs t) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = pool.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT id FROM " + t.getName() + " ORDER BY id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    private long count(Jobs t) throws SQLException {
        try (Connection c = pool.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT count(*) FROM " + t.getName() + " WHERE processed_at IS NOT NULL");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
