package dev.tablequeue.outbox;

import java.time.Duration;
import java.time.Instant;

/**
 * One tracked name: the binding of the table its records go to, that table's statements, and the age after
 * which the periodic republish sends an unprocessed record again (null where it does not run).
 */
record Registration(String name, OutboxBinding<?> binding, RecordStatements statements, Duration republishAfter) {

    /** The lease a new record is written with: it keeps the periodic republish off it for the age. */
    Instant leaseOfNewRecord(Instant now) {
        return republishAfter == null || binding.lease().isEmpty() ? null : now.plus(republishAfter);
    }
}
