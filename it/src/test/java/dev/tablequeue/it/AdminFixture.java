package dev.tablequeue.it;

import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.test.contract.Jobs;
import java.time.Instant;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture of the suites that read a queue's state (the admin, the metrics, the command line): a fixed
 * "now", and rows written with chosen times.
 */
public abstract class AdminFixture extends BrokerFixture {
    /** The tests' "now": whole seconds, so every database keeps the times these tests write exactly. */
    protected static final Instant NOW = Instant.parse("2031-03-14T15:09:26Z");

    private QueueDialect dialect;

    @BeforeEach
    void setClock() {
        clock.set(NOW);
    }

    /** An admin on the test's pool, reading "now" from the test's clock. */
    protected QueueAdmin admin() {
        return QueueAdmin.of(pool).withClock(clock);
    }

    /** Inserts an unfinished row of {@code group}, due at {@code due}, with {@code attempt}; its id. */
    protected long insertRow(Jobs t, String group, Instant due, int attempt) {
        long id = dsl().insertInto(t).set(t.GRP, group).set(t.ATTEMPT, attempt)
                .set(t.PAYLOAD, "{\"n\":1,\"kind\":\"mail\"}".getBytes()).returning(t.ID).fetchOne().get(t.ID);
        setTime(t, id, "retry_after", due);
        return id;
    }

    /** Writes {@code at} into time column {@code column} of row {@code id}, as the dialect binds times. */
    protected void setTime(Jobs t, long id, String column, Instant at) {
        if (dialect == null) {
            dialect = admin().dialect();
        }
        Object value = dialect.timeValue(t.field(column), at);
        dsl().update(t).set(DSL.field(DSL.name(column), Object.class), value).where(t.ID.eq(id)).execute();
    }

    protected String groupAndAttempt(Jobs t, long id) {
        Record r = dsl().select(t.GRP, t.ATTEMPT).from(t).where(t.ID.eq(id)).fetchOne();
        return r == null ? "gone" : r.get(t.GRP) + "/" + r.get(t.ATTEMPT);
    }
}
