package dev.tablequeue.outbox;

import dev.tablequeue.broker.AsyncApi;
import java.util.Collection;
import java.util.List;

/**
 * The outbox's names in an AsyncAPI document: a channel each, which the service sends to, whose messages carry
 * their record's id in {@link Outbox#ID_HEADER}. The payload is described as any JSON value: a record holds the
 * bytes its publisher's codec wrote, whose type the registry does not know.
 */
final class OutboxChannels implements AsyncApi.Part {
    private final Collection<Registration> registrations;

    OutboxChannels(Collection<Registration> registrations) {
        this.registrations = List.copyOf(registrations);
    }

    @Override
    public void describeTo(AsyncApi document) {
        for (Registration r : registrations) {
            document.sends(r.name(), "Messages published under \"" + r.name() + "\" through the outbox: each recorded in"
                    + " table \"" + r.binding().tableName() + "\" in the publisher's transaction, sent after its"
                    + " commit, and sent again until it is done.", null, List.of(Outbox.ID_HEADER));
        }
    }
}
