package dev.tablequeue.binding;

/** Where the statements of a binding read "now". */
public enum ClockSource {
    /** The host's clock, bound as a parameter in the column's own type (the default). */
    HOST,
    /** The database's clock, read inside each statement. Refused beside a lease. */
    DATABASE
}
