package dev.tablequeue.spring;

import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * A {@code @Transactional} service the handler suite's handler calls: it writes one ledger row through Boot's
 * {@code JdbcTemplate} and one through Boot's {@code DSLContext}, as a service does on its own connection.
 */
public class LedgerService {
    /** The ledger: the job a row was written for, and what wrote it. */
    static final String DDL = "CREATE TABLE ledger (job VARCHAR(100) NOT NULL, via VARCHAR(10) NOT NULL)";

    private final JdbcTemplate jdbc;
    private final DSLContext dsl;

    LedgerService(JdbcTemplate jdbc, DSLContext dsl) {
        this.jdbc = jdbc;
        this.dsl = dsl;
    }

    /** Writes the ledger rows of {@code job}. */
    @Transactional
    public void record(String job) {
        jdbc.update("INSERT INTO ledger (job, via) VALUES (?, 'jdbc')", job);
        dsl.insertInto(DSL.table("ledger")).columns(DSL.field("job"), DSL.field("via")).values(job, "jooq").execute();
    }

    /** Writes the ledger rows of {@code job}, then fails: the method's transaction is to roll back. */
    @Transactional
    public void recordThenFail(String job) {
        record(job);
        throw new IllegalStateException("recording " + job + " failed");
    }

    /** The server process of the connection this method's transaction runs on (PostgreSQL). */
    @Transactional
    public int backendPid() {
        return jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class);
    }

    /** How many ledger rows {@code job} has, as the caller's connection sees them. */
    int rows(String job) {
        return jdbc.queryForObject("SELECT count(*) FROM ledger WHERE job = ?", Integer.class, job);
    }
}
