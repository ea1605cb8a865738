package dev.tablequeue.binding;

/** A standard SQL isolation level a binding may declare for the transactions tablequeue opens. */
public enum Isolation implements Opening {
    READ_UNCOMMITTED("READ UNCOMMITTED"),
    READ_COMMITTED("READ COMMITTED"),
    REPEATABLE_READ("REPEATABLE READ"),
    SERIALIZABLE("SERIALIZABLE");

    private final String sql;

    Isolation(String sql) {
        this.sql = sql;
    }

    /** The level as SQL spells it, e.g. {@code READ COMMITTED}. */
    public String sql() {
        return sql;
    }
}
