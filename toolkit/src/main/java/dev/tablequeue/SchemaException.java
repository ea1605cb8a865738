package dev.tablequeue;

/** A table or column a binding names that the database lacks: names the table and the statement that failed to prepare. */
public class SchemaException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
        super(message);
    }

    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
