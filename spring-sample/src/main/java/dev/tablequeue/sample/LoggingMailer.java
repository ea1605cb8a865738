package dev.tablequeue.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A mailer that logs what it would send. */
final class LoggingMailer implements Mailer {
    private static final Logger LOG = LoggerFactory.getLogger(LoggingMailer.class);

    @Override
    public void sendWelcome(String email) {
        LOG.info("welcome mail sent to {}", email);
    }
}
