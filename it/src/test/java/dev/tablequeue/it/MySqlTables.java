package dev.tablequeue.it;

/** The DDL of a {@link Jobs} table on MySQL and MariaDB, with an index in claim order. */
final class MySqlTables {
    private MySqlTables() {}

    static String ddl(String name) {
        return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(100),"
                + " priority INT NOT NULL DEFAULT 0, partition_key VARCHAR(100),"
                + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)), attempt INT NOT NULL DEFAULT 1,"
                + " processed_at DATETIME(6) NULL, locked_until DATETIME(6) NULL, headers TEXT, payload LONGBLOB,"
                + " note VARCHAR(100), last_error TEXT, INDEX " + name + "_claim (grp, priority, retry_after, id))";
    }

    /** The acknowledgement ledger of {@link TestDatabase#ackLedger} on MySQL and MariaDB. */
    static java.util.List<String> ackLedger(String table, String acks) {
        return java.util.List.of("CREATE TABLE " + acks + " (job_id BIGINT NOT NULL)",
                "CREATE TRIGGER " + acks + "_t AFTER UPDATE ON " + table + " FOR EACH ROW INSERT INTO " + acks
                        + " (job_id) SELECT NEW.id FROM DUAL WHERE " + TestDatabase.ACKED);
    }
}
