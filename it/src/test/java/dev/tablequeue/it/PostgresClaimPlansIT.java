package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueKeys;
import dev.tablequeue.test.contract.Jobs;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How PostgreSQL plans a claim. The server estimates a bound {@code LIMIT} at a tenth of the table, so a claim
 * whose limit is bound costs more on any plan for every limit than on a plan for the one it is given, and was
 * planned anew at every execution. Each limit's claim (and each limit's read of advisory candidates) is a text
 * of its own, with the number in it, on a plan the server keeps. Read from the session's
 * {@code pg_prepared_statements} (pgjdbc prepares a statement on the server from its fifth use).
 */
class PostgresClaimPlansIT extends BrokerFixture {
    private static final int CLAIMS = 15;

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }

    @ParameterizedTest
    @EnumSource(value = Form.class, names = {"ROW_LOCK", "LEASE"})
    void each_limit_is_a_claim_of_its_own_on_a_plan_the_server_keeps(Form form) throws SQLException {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        insertMany(t, "emails", CLAIMS * (2 + 3));
        Set<Object> claimed = new HashSet<>();
        try (Connection c = pool.getConnection()) {
            QueueClaims claims = database().dialect(c).claims(b, ClaimShape.IDS, false);
            assertThat(claims.claim(2).sql()).contains("fetch next 2 rows only")
                    .isNotEqualTo(claims.claim(3).sql());
            assertThat(claims.claim(2).params()).noneMatch(p -> p.kind() == Param.Kind.LIMIT);
            for (int limit : new int[] {2, 3}) {
                for (int i = 0; i < CLAIMS; i++) {
                    List<Object> ids = claim(c, claims, t, form, limit);
                    assertThat(ids).hasSize(limit);
                    assertThat(claimed.addAll(ids)).isTrue();
                }
            }
            assertEachLimitKeptItsPlan(c, t);
        }
        assertThat(claimed).hasSize(CLAIMS * (2 + 3));
    }

    @Test
    void each_limit_of_the_advisory_candidates_is_a_text_of_its_own_on_a_plan_the_server_keeps() throws SQLException {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, Form.ADVISORY);
        insertMany(t, "emails", 5);
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(true);
            QueueKeys keys = database().dialect(c).keys(b, ClaimShape.IDS, false);
            for (int limit : new int[] {2, 3}) {
                for (int i = 0; i < CLAIMS; i++) {
                    assertThat(keys.candidates(c, "emails", Instant.now(), limit)).hasSize(limit);
                }
            }
            assertEachLimitKeptItsPlan(c, t);
        }
    }

    /** One claim of {@code limit} rows as the runtime makes it; a row lock claim's transaction commits after. */
    private static List<Object> claim(Connection c, QueueClaims claims, Jobs t, Form form, int limit)
            throws SQLException {
        Instant now = Instant.now();
        if (form == Form.LEASE) {
            c.setAutoCommit(true);
            return claims.claimLeased(c, "emails", now, now.plusSeconds(60), limit, IDS);
        }
        c.setAutoCommit(false);
        List<Object> ids = claims.claimLocked(c, "emails", now, limit, IDS);
        // acknowledged with the claim, so the next claim passes over them
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE " + t.getName() + " SET processed_at = now() WHERE id = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            ps.executeUpdate();
        }
        c.commit();
        return ids;
    }

    /** Reads each claimed row's id. */
    private static final ClaimedRows<Object> IDS = new ClaimedRows<>() {
        @Override
        public Object read(ResultSet rs) throws SQLException {
            return rs.getLong(1);
        }

        @Override
        public Object fromRecord(Record record, boolean stamped) {
            throw new UnsupportedOperationException("the service claims nothing here");
        }

        @Override
        public Object id(Object row) {
            return row;
        }

        @Override
        public Object unfetched(Object id, String failure) {
            throw new AssertionError("no fetch here: " + failure);
        }
    };

    /** The texts of 2 and of 3 rows, each prepared on {@code c}'s session and run on a generic plan. */
    private static void assertEachLimitKeptItsPlan(Connection c, Jobs t) throws SQLException {
        List<PreparedPlans> plans = PreparedPlans.naming(c, t.getName());
        for (int limit : new int[] {2, 3}) {
            assertThat(plans).filteredOn(p -> p.statement().contains("fetch next " + limit + " rows only"))
                    .singleElement()
                    .satisfies(p -> assertThat(p.generic()).as("generic plans of the text of %d rows", limit)
                            .isPositive());
        }
    }
}
