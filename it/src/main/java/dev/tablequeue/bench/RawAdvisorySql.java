package dev.tablequeue.bench;

import org.jooq.DSLContext;

/**
 * The two statements of {@link RawBatchLoop}'s advisory form on PostgreSQL (see its class comment), written by
 * hand: tablequeue's runtime has no statement of that shape to take them from.
 */
final class RawAdvisorySql {
    private RawAdvisorySql() {}

    /**
     * The advisory claim: binds the group, the time now, the rows to read and the keys to hold. The key is the
     * binding's, {@code <table>-<id>}.
     */
    static String claim(DSLContext render, BenchTable t) {
        String table = render.render(t);
        String key = "'" + t.getName() + "-' || cast(\"id\" as text)";
        return "with \"tq_read\" as (select \"id\", " + key + " as \"tq_key\" from " + table
                + " where \"grp\" = ? and \"retry_after\" <= ? and \"processed_at\" is null"
                + " order by \"priority\", \"retry_after\", \"id\" limit ?),"
                + " \"tq_held\" as (select \"id\", \"tq_key\" from \"tq_read\""
                + " where pg_try_advisory_lock(hashtextextended(\"tq_key\", 0)) limit ?),"
                + " \"tq_taken\" as (update " + table + " set \"attempt\" = " + table + ".\"attempt\" + 1"
                + " from \"tq_held\" where " + table + ".\"id\" = \"tq_held\".\"id\" and " + table
                + ".\"processed_at\" is null returning " + table + ".\"id\", \"tq_held\".\"tq_key\", " + table
                + ".\"attempt\", " + table + ".\"priority\", " + table + ".\"payload\"),"
                + " \"tq_back\" as (select pg_advisory_unlock(hashtextextended(\"tq_key\", 0)) from \"tq_held\""
                + " where not exists (select 1 from \"tq_taken\" where \"tq_taken\".\"id\" = \"tq_held\".\"id\"))"
                + " select * from \"tq_taken\" where (select count(*) from \"tq_back\") >= 0";
    }

    /**
     * The advisory acknowledgement: binds the time now, the ids (a bigint array) and their keys (a text array);
     * returns the rows it updated and the keys whose session hold it released.
     */
    static String ack(DSLContext render, BenchTable t) {
        String table = render.render(t);
        return "with \"tq_acked\" as (update " + table + " set \"processed_at\" = ? where \"id\" = any(?)"
                + " returning 1), \"tq_keys\" as (select hashtextextended(\"tq_key\", 0) as \"tq_k\""
                + " from unnest(cast(? as text[])) as \"tq_u\"(\"tq_key\"), (select count(*) from \"tq_acked\")"
                + " as \"tq_written\"), \"tq_kept\" as (select \"tq_k\", pg_try_advisory_xact_lock(\"tq_k\")"
                + " as \"tq_x\" from \"tq_keys\") select (select count(*) from \"tq_acked\"),"
                + " count(*) filter (where pg_advisory_unlock(\"tq_kept\".\"tq_k\")) from \"tq_kept\"";
    }
}
