package dev.tablequeue.dashboard;

import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.Redrive;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DataType;

/**
 * One action a form of the page asks for, checked: its kind from a fixed list, its queue by index among the
 * dashboard's queues, its row's id converted to the id column's type. Nothing of the request reaches a
 * statement but that converted value, which the admin binds.
 *
 * @param kind what to do
 * @param entry the queue
 * @param id the row's id as the form gave it (null for an action on the whole queue)
 */
record Action(Kind kind, Dashboard.Entry entry, String id) {
    /** The longest id a form may give. */
    private static final int ID_CHARS = 200;

    /** The actions, by the name a form gives. */
    enum Kind {
        REDRIVE_ALL("redrive-all", false), REDRIVE("redrive", true), RETRY("retry", true), DELETE("delete", true),
        DELETE_DEAD("delete-dead", true), PAUSE("pause", false), RESUME("resume", false);

        final String field;
        final boolean row;

        Kind(String field, boolean row) {
            this.field = field;
            this.row = row;
        }
    }

    /** A form that names no action this page takes, or a queue or row it does not know. */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    /** The action {@code form} asks for, checked against {@code queues}; {@code broker} may be null. */
    static Action parse(Map<String, String> form, List<Dashboard.Entry> queues, QueueBroker broker) throws Invalid {
        String name = form.getOrDefault("action", "");
        Kind kind = Arrays.stream(Kind.values()).filter(k -> k.field.equals(name)).findFirst()
                .orElseThrow(() -> new Invalid("No action named '" + clip(name) + "': the page takes "
                        + String.join(", ", Arrays.stream(Kind.values()).map(k -> k.field).toList()) + "."));
        String q = form.getOrDefault("queue", "");
        if (!q.matches("\\d{1,4}") || Integer.parseInt(q) >= queues.size()) {
            throw new Invalid("No queue number '" + clip(q) + "' on this page (it shows " + queues.size() + ").");
        }
        Dashboard.Entry entry = queues.get(Integer.parseInt(q));
        String id = null;
        if (kind.row) {
            id = form.getOrDefault("id", "");
            if (id.isEmpty() || id.length() > ID_CHARS) {
                throw new Invalid("The " + kind.field + " action names a row by its id (1 to " + ID_CHARS
                        + " characters).");
            }
            DataType<?> type = entry.queue().binding().id().getDataType();
            try {
                if (type.convert(id) == null) {
                    throw new IllegalArgumentException("null");
                }
            } catch (RuntimeException e) {
                throw new Invalid("'" + clip(id) + "' is not an id of table " + entry.queue().binding().tableName()
                        + " (its id column is " + type.getName() + ").");
            }
        }
        if ((kind == Kind.REDRIVE_ALL || kind == Kind.REDRIVE || kind == Kind.DELETE_DEAD)
                && entry.deadLetter() == null) {
            throw new Invalid("Queue " + entry.queue().name() + " has no dead letter on this page.");
        }
        if ((kind == Kind.PAUSE || kind == Kind.RESUME) && (broker == null
                || broker.queues().stream().noneMatch(s -> s.queue().equals(entry.queue())))) {
            throw new Invalid("Pause and resume need the broker that serves " + entry.queue().name()
                    + ": this page does not run in that service.");
        }
        return new Action(kind, entry, id);
    }

    /** What the confirmation asks. */
    String question() {
        String queue = entry.queue().name();
        return switch (kind) {
            case REDRIVE_ALL -> "Move every dead letter of " + queue + " (" + entry.deadLetter()
                    + ") back into " + queue + ", each starting again at attempt 1?";
            case REDRIVE -> "Move dead letter " + id + " (" + entry.deadLetter() + ") back into " + queue
                    + ", starting again at attempt 1?";
            case RETRY -> "Make row " + id + " of " + queue + " due now?";
            case DELETE -> "Delete row " + id + " of " + queue + "? It is gone for good.";
            case DELETE_DEAD -> "Delete dead letter " + id + " of " + queue + " (" + entry.deadLetter()
                    + ")? It is gone for good.";
            case PAUSE -> "Pause the subscription to " + queue + "? Its deliveries in work finish; no new row is"
                    + " claimed until it is resumed.";
            case RESUME -> "Resume the subscription to " + queue + "?";
        };
    }

    /** Runs the action; what it did, in words. */
    String run(QueueAdmin admin, QueueBroker broker) {
        String queue = entry.queue().name();
        return switch (kind) {
            case REDRIVE_ALL -> rows(admin.redrive(entry.queue(), entry.deadLetter(), Redrive.all()))
                    + " moved back into " + queue + ".";
            case REDRIVE -> rows(admin.redrive(entry.queue(), entry.deadLetter(), Redrive.ids(List.of(id))))
                    + " moved back into " + queue + ".";
            case RETRY -> admin.retryNow(entry.queue(), id) ? "Row " + id + " of " + queue + " is due now."
                    : "Row " + id + " of " + queue + " was not changed: it is finished, in work or gone.";
            case DELETE -> admin.delete(entry.queue(), null, id) ? "Row " + id + " of " + queue + " deleted."
                    : "Row " + id + " of " + queue + " was not deleted: it is finished or gone.";
            case DELETE_DEAD -> admin.delete(entry.queue(), entry.deadLetter(), id)
                    ? "Dead letter " + id + " of " + queue + " deleted."
                    : "Dead letter " + id + " of " + queue + " was not deleted: it is finished or gone.";
            case PAUSE -> {
                broker.pause(entry.queue());
                yield "The subscription to " + queue + " is paused.";
            }
            case RESUME -> {
                broker.resume(entry.queue());
                yield "The subscription to " + queue + " claims again.";
            }
        };
    }

    /** The fields a confirmation's form carries on to the action. */
    Map<String, String> fields() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("action", kind.field);
        f.put("queue", String.valueOf(entry.index()));
        if (id != null) {
            f.put("id", id);
        }
        return f;
    }

    private static String rows(long n) {
        return n == 1 ? "1 row" : n + " rows";
    }

    private static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
