package dev.tablequeue;

/** A second subscription to a queue one broker already serves. */
public class AlreadySubscribedException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    public AlreadySubscribedException(String message) {
        super(message);
    }

    public AlreadySubscribedException(String message, Throwable cause) {
        super(message, cause);
    }
}
