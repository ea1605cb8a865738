package dev.tablequeue;

/**
 * A configuration that cannot serve, refused before anything runs: a binding that breaks a rule (at
 * {@code build()}), a dialect that does not serve a binding, a subscription's settings its table cannot
 * carry, a table or column the database lacks, a server too old, a queue subscribed twice (at
 * {@code start()} or before). Each names the table and what is wrong; fixing it means changing the code or
 * the schema, not retrying.
 */
public class ConfigurationException extends TableQueueException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
