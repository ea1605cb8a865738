package dev.tablequeue.dialect;

/** What a claim (or a fetch) returns for each row it takes. */
public enum ClaimShape {
    /** Every column of the row: row mode. */
    ROWS,
    /** The id alone, for a fetch (the service's own, or the dialect's) to read the rows. */
    IDS,
    /** The columns a delivery reads off the row: id, partition key, attempt, headers, payload. */
    ROLES
}
