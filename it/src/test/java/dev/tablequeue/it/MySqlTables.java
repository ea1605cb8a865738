package dev.tablequeue.it;

import dev.tablequeue.test.contract.Jobs;

/** What the drills need on MySQL and MariaDB beside a {@link Jobs} table. */
final class MySqlTables {
    private MySqlTables() {}

    /** The acknowledgement ledger of {@link TestDatabase#ackLedger} on MySQL and MariaDB. */
    static java.util.List<String> ackLedger(String table, String acks) {
        return java.util.List.of("CREATE TABLE " + acks + " (job_id BIGINT NOT NULL)",
                "CREATE TRIGGER " + acks + "_t AFTER UPDATE ON " + table + " FOR EACH ROW INSERT INTO " + acks
                        + " (job_id) SELECT NEW.id FROM DUAL WHERE " + TestDatabase.ACKED);
    }
}
