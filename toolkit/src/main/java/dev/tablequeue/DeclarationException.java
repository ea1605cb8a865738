package dev.tablequeue;

/** A subscription declared with settings that cannot go together, or that its table cannot carry: names the queue and what is missing. */
public class DeclarationException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    public DeclarationException(String message) {
        super(message);
    }

    public DeclarationException(String message, Throwable cause) {
        super(message, cause);
    }
}
