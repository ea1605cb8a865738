package dev.tablequeue.dialect;

/** The DDL of {@link QueueTable} on MySQL and MariaDB: times are DATETIME(6) holding UTC. */
final class MySqlQueueTables {
    private MySqlQueueTables() {}

    /** A queue table named {@code name}, indexed in claim order within each group. */
    static String ddl(String name) {
        return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(100),"
                + " priority INT NOT NULL DEFAULT 0, partition_key VARCHAR(100),"
                + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),"
                + " attempt INT NOT NULL DEFAULT 1, processed_at DATETIME(6), locked_until DATETIME(6),"
                + " headers TEXT, payload BLOB, note VARCHAR(100), last_error TEXT,"
                + " INDEX " + name + "_claim (grp, priority, retry_after, id)) ENGINE=InnoDB";
    }
}
