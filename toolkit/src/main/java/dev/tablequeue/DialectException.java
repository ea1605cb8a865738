package dev.tablequeue;

/** A binding a dialect does not serve, or a statement it cannot build: names the dialect, table and reason. */
public class DialectException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    private final String dialect;
    private final String table;

    public DialectException(String dialect, String table, String reason) {
        super(dialect + " dialect, table \"" + table + "\": " + reason);
        this.dialect = dialect;
        this.table = table;
    }

    /** The dialect that refused. */
    public String dialect() {
        return dialect;
    }

    /** The table whose binding was refused. */
    public String table() {
        return table;
    }
}
