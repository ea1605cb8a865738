package dev.tablequeue.maven.checker;

/** A database the check cannot use: reported as a violation, with what to do about it. */
final class CheckFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CheckFailure(String message) {
        super(message);
    }
}
