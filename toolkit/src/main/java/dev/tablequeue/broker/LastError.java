package dev.tablequeue.broker;

/**
 * The text a last-error column keeps of a failure: the exception's class and message, cut to the column's
 * length with an ellipsis. The stack trace goes to the log; the column says what an operator needs to see
 * why a row failed.
 */
final class LastError {
    private LastError() {}

    /** {@code failure}'s class and message, at most {@code length} characters. */
    static String of(Throwable failure, int length) {
        String message = failure.getMessage();
        String text = failure.getClass().getName() + (message == null ? "" : ": " + message);
        if (text.length() <= length) {
            return text;
        }
        int cut = length - 1;
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--; // never half a character
        }
        return text.substring(0, cut) + "\u2026";
    }
}
