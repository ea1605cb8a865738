package dev.tablequeue.sample;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Remembers the welcome mails sent. Called from {@link WelcomeMails}, a transactional handler, it joins the
 * delivery's transaction: its row commits with the job's acknowledgement, or not at all.
 */
@Service
public class SentMails {
    private final JdbcTemplate jdbc;

    SentMails(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Records that the welcome mail to {@code email} was sent. */
    @Transactional
    public void record(String email) {
        jdbc.update("INSERT INTO sent_mails (email) VALUES (?)", email);
    }
}
