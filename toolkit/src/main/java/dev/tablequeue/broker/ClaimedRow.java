package dev.tablequeue.broker;

import java.util.Map;
import java.util.OptionalInt;
import org.jooq.Record;

/**
 * What a claim read off one row, before any handler runs: the id always, the rest as decoded. A row whose
 * columns did not decode carries the failure, and the decode policy settles it.
 */
record ClaimedRow(
        Object id,
        OptionalInt attempt,
        Object partitionKey,
        Map<String, String> headers,
        byte[] payload,
        Record record,
        Throwable decodeFailure) {}
