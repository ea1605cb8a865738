package dev.tablequeue.outbox;

import dev.tablequeue.BindingException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends unprocessed records again: all of them at startup, in id order, a page at a time; and, while the
 * service runs, those whose lease ran out, claimed through tablequeue's lease form so that one instance
 * alone sends each; and deletes processed records past their retention.
 */
final class Republisher {
    private static final Logger LOG = LoggerFactory.getLogger(Republisher.class);
    static final int PAGE = 500;
    static final int CLAIM = 100;
    /** Set while this thread sends a record again: the publish middleware passes such a send as it is. */
    private static final ThreadLocal<Boolean> RESENDING = new ThreadLocal<>();

    /** Records by id: numbers by value, any other id (text, UUID) as text. */
    static final java.util.Comparator<PendingRecord> BY_ID = (a, b) ->
            a.id() instanceof Number x && b.id() instanceof Number y
                    ? Long.compare(x.longValue(), y.longValue())
                    : a.id().toString().compareTo(b.id().toString());

    private final Outbox outbox;
    private final DataSource dataSource;

    Republisher(Outbox outbox, DataSource dataSource) {
        this.outbox = outbox;
        this.dataSource = dataSource;
    }

    /**
     * Sends every unprocessed record of {@code registrations} again, table by table in id order.
     *
     * @throws OutboxException naming the table, or the record, that could not be read or sent
     */
    int atStartup(Collection<Registration> registrations, Sender sender) {
        Map<OutboxBinding<?>, List<Registration>> byTable = new LinkedHashMap<>();
        for (Registration r : registrations) {
            byTable.computeIfAbsent(r.binding(), b -> new ArrayList<>()).add(r);
        }
        int sent = 0;
        for (List<Registration> table : byTable.values()) {
            sent += table(table, sender);
        }
        return sent;
    }

    private int table(List<Registration> registrations, Sender sender) {
        Registration first = registrations.get(0);
        OutboxBinding<?> binding = first.binding();
        Set<String> names = new LinkedHashSet<>();
        registrations.forEach(r -> names.add(r.name()));
        int sent = 0;
        Object after = null;
        while (true) {
            List<PendingRecord> page;
            try (Connection c = dataSource.getConnection()) {
                page = binding.owns(OutboxEvent.RECOVER)
                        ? ((OwnRecords.Recover) binding.own(OutboxEvent.RECOVER))
                                .recover(DSL.using(c, first.statements().dialect().sqlDialect()), names, after, PAGE)
                        : first.statements().page(c, names, after, PAGE);
            } catch (SQLException | RuntimeException e) {
                throw new OutboxException("the republish cannot read the unprocessed records of " + names + " in \""
                        + binding.tableName() + "\"" + (after == null ? "" : " after record " + after) + ": "
                        + e.getMessage(), e);
            }
            for (PendingRecord record : page) {
                send(binding, record, sender);
                sent++;
            }
            if (page.size() < PAGE) {
                return sent;
            }
            after = page.get(page.size() - 1).id();
        }
    }

    private static void send(OutboxBinding<?> binding, PendingRecord record, Sender sender) {
        Map<String, String> headers = new LinkedHashMap<>(record.headers());
        headers.put(Outbox.ID_HEADER, record.id().toString());
        try {
            resending(() -> sender.send(record.name(), record.payload(), headers));
        } catch (Exception e) {
            throw new OutboxException("the republish of record " + record.id() + " (" + record.name() + ") of \""
                    + binding.tableName() + "\" failed: " + e.getMessage(), e);
        }
    }

    /**
     * One pass of the periodic republish: claims the unprocessed records of each registration whose lease ran
     * out, leasing each for the registration's age, and sends them. A failed send is logged; its record comes
     * due again when the lease runs out.
     *
     * @return the records sent
     */
    int due(Collection<Registration> registrations, Sender sender) {
        int sent = 0;
        for (Registration r : registrations) {
            if (r.republishAfter() == null) {
                continue;
            }
            while (true) {
                Instant now = outbox.clock().instant();
                List<PendingRecord> claimed;
                try (Connection c = dataSource.getConnection()) {
                    claimed = r.statements().claim(c, r.name(), now, now.plus(r.republishAfter()), CLAIM);
                } catch (SQLException | RuntimeException e) {
                    LOG.warn("the periodic republish cannot claim the records of {} in \"{}\": {}", r.name(),
                            r.binding().tableName(), e.toString());
                    break;
                }
                // id order per key: a claim returns its records in no set order, and once a record of a key
                // failed, a later record of that key waits for the next pass rather than overtaking it
                List<PendingRecord> ordered = new ArrayList<>(claimed);
                ordered.sort(BY_ID);
                Set<String> failedKeys = new java.util.HashSet<>();
                for (PendingRecord record : ordered) {
                    String key = record.headers().get(OutboxHeaders.KEY);
                    if (key != null && failedKeys.contains(key)) {
                        continue;
                    }
                    try {
                        send(r.binding(), record, sender);
                        sent++;
                    } catch (OutboxException e) {
                        if (key != null) {
                            failedKeys.add(key);
                        }
                        LOG.warn("{}; it is sent again in {}", e.getMessage(), r.republishAfter());
                    }
                }
                if (claimed.size() < CLAIM) {
                    break;
                }
            }
        }
        return sent;
    }

    /** Deletes the processed records older than {@code retention} of each table; how many. */
    int sweep(Collection<OutboxBinding<?>> bindings, java.time.Duration retention, Map<OutboxBinding<?>,
            RecordStatements> statements) {
        int deleted = 0;
        Instant before = outbox.clock().instant().minus(retention);
        for (OutboxBinding<?> b : bindings) {
            try (Connection c = dataSource.getConnection()) {
                deleted += statements.get(b).sweep(c, before);
            } catch (SQLException | RuntimeException e) {
                LOG.warn("the retention sweep of \"{}\" failed: {}", b.tableName(), e.toString());
            }
        }
        return deleted;
    }

    /** A send that throws. */
    @FunctionalInterface
    interface Send {
        void run() throws Exception;
    }

    /**
     * Runs {@code send} as a send of a record again: the publish middleware passes what it sends untouched (it
     * carries its record's id already), where any other publish under a tracked name gets a record of its own.
     */
    static void resending(Send send) throws Exception {
        Boolean before = RESENDING.get();
        RESENDING.set(Boolean.TRUE);
        try {
            send.run();
        } finally {
            if (before == null) {
                RESENDING.remove();
            }
        }
    }

    /** Whether this thread is sending a record again. */
    static boolean isResending() {
        return RESENDING.get() != null;
    }

    /** Refuses settings a binding cannot carry, naming the table and the rule. */
    static void check(OutboxBinding<?> b, boolean periodic, boolean retained) {
        List<String> broken = new ArrayList<>();
        if (periodic && b.lease().isEmpty()) {
            broken.add("outbox: republishAfter(..) claims records through the lease form, so the record table needs"
                    + " a lease column (locked_until, a time) declared with lease(..)");
        }
        if (retained && b.processedAt().isEmpty()) {
            broken.add("outbox: retainProcessed(..) deletes records processed before a time, so the record table"
                    + " needs processed_at declared with processedAt(..) (without it processing deletes the record)");
        }
        if (!broken.isEmpty()) {
            throw new BindingException(b.tableName(), String.join("; ", broken));
        }
    }
}
