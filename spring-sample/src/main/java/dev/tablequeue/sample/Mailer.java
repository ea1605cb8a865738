package dev.tablequeue.sample;

/** Sends mail. */
public interface Mailer {
    /** Sends the welcome mail to {@code email}. */
    void sendWelcome(String email) throws Exception;
}
