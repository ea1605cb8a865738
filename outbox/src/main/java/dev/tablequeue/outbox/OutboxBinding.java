package dev.tablequeue.outbox;

import dev.tablequeue.BindingException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Field;
import org.jooq.JSON;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.TableField;

/**
 * Which column of the service's record table plays which part in the outbox: the id, the name, the payload
 * (required), the headers and processed_at (optional), and the lease column the periodic republish claims
 * records with. Build it once, as a {@code static final} constant, so a binding that breaks a rule fails at
 * class initialisation.
 *
 * <pre>{@code
 * public static final OutboxBinding<OutboxRecord> ORDERS_OUTBOX =
 *     OutboxBinding.of(OUTBOX, OUTBOX.ID, OUTBOX.NAME, OUTBOX.PAYLOAD)
 *         .headers(OUTBOX.HEADERS)
 *         .processedAt(OUTBOX.PROCESSED_AT)
 *         .build();
 * }</pre>
 *
 * <p>Without processed_at an acknowledgement deletes the record. Without a lease column the records are sent
 * again only by {@link Outbox#republish}, at startup; {@link Outbox.Builder#republishAfter} needs one.
 *
 * @param <R> the jOOQ record type of the table
 */
public final class OutboxBinding<R extends Record> {
    private final Table<R> table;
    private final Field<?> id;
    private final Field<String> name;
    private final Field<?> payload;
    private final Field<?> headers;
    private final Field<? extends Temporal> processedAt;
    private final Field<? extends Temporal> lease;
    private final DoneWhen doneWhen;
    private final Map<OutboxEvent, Object> own;

    private OutboxBinding(Builder<R> b) {
        this.table = b.table;
        this.id = b.id;
        this.name = b.name;
        this.payload = b.payload;
        this.headers = b.headers;
        this.processedAt = b.processedAt;
        this.lease = b.lease;
        this.doneWhen = b.doneWhen;
        this.own = Collections.unmodifiableMap(new EnumMap<>(b.own));
    }

    /** Starts the binding of {@code table}: its id, the name each record was published under, and the payload. */
    public static <R extends Record> Builder<R> of(Table<R> table, Field<?> id, Field<String> name, Field<?> payload) {
        return new Builder<>(table, id, name, payload);
    }

    public Table<R> table() {
        return table;
    }

    /** The table's name, qualified with its schema where it has one. */
    public String tableName() {
        return table.getSchema() == null || table.getSchema().getName().isEmpty()
                ? table.getName()
                : table.getSchema().getName() + "." + table.getName();
    }

    public Field<?> id() {
        return id;
    }

    public Field<String> name() {
        return name;
    }

    public Field<?> payload() {
        return payload;
    }

    public Optional<Field<?>> headers() {
        return Optional.ofNullable(headers);
    }

    public Optional<Field<? extends Temporal>> processedAt() {
        return Optional.ofNullable(processedAt);
    }

    /** The lease column the periodic republish claims records with, if the table has one. */
    public Optional<Field<? extends Temporal>> lease() {
        return Optional.ofNullable(lease);
    }

    /**
     * When a record is done, where the binding says ({@link Builder#doneWhen}); empty: as the transport that sends
     * it decides (confirmed on a broker that confirms, acknowledged otherwise).
     */
    public Optional<DoneWhen> doneWhen() {
        return Optional.ofNullable(doneWhen);
    }

    /** Whether the service runs {@code event} with its own statement. */
    public boolean owns(OutboxEvent event) {
        return own.containsKey(event);
    }

    Object own(OutboxEvent event) {
        return own.get(event);
    }

    /**
     * The record table in tablequeue's lease form, grouped by name: what the periodic republish claims
     * records through, so that two instances never send one record at the same time.
     */
    RoleBinding<R> leaseBinding() {
        RoleBinding.Builder<R> b = RoleBinding.of(table, id).group(name).payload(payload);
        if (headers != null) {
            b.headers(headers);
        }
        if (processedAt != null) {
            b.processedAt(processedAt);
        }
        return b.lease(Objects.requireNonNull(lease, "lease")).build();
    }

    /**
     * Every statement an {@link Outbox} registry runs on this record table on {@code dialect}'s database (the
     * insert, the fetch, the mark, the republish's pages, the sweep, the lease claim): what the registry
     * prepares on the server when it is built, and what {@code tablequeue:check} prepares at build time.
     */
    public List<Statement> statements(QueueDialect dialect) {
        return new RecordStatements(this, Objects.requireNonNull(dialect, "dialect")).statements();
    }

    @Override
    public String toString() {
        return "OutboxBinding[" + tableName() + "]";
    }

    /** Declares an outbox binding; {@link #build()} checks every rule and names the table and the rule broken. */
    public static final class Builder<R extends Record> {
        private final Table<R> table;
        private final Field<?> id;
        private final Field<String> name;
        private final Field<?> payload;
        private Field<?> headers;
        private Field<? extends Temporal> processedAt;
        private Field<? extends Temporal> lease;
        private DoneWhen doneWhen;
        private final Map<OutboxEvent, Object> own = new EnumMap<>(OutboxEvent.class);
        private final List<String> problems = new ArrayList<>();

        private Builder(Table<R> table, Field<?> id, Field<String> name, Field<?> payload) {
            this.table = Objects.requireNonNull(table, "an outbox binding needs its table");
            this.id = Objects.requireNonNull(id, "an outbox binding needs its id column");
            this.name = Objects.requireNonNull(name, "an outbox binding needs its name column");
            this.payload = Objects.requireNonNull(payload, "an outbox binding needs its payload column");
        }

        /** The headers each record was published with, as a JSON object of strings (JSON or text). */
        public Builder<R> headers(Field<?> column) {
            problems.addAll(once("headers", this.headers));
            this.headers = Objects.requireNonNull(column, "headers");
            return this;
        }

        /** Stamped when the record is processed; without it processing deletes the record. */
        public Builder<R> processedAt(Field<? extends Temporal> column) {
            problems.addAll(once("processedAt", this.processedAt));
            this.processedAt = Objects.requireNonNull(column, "processedAt");
            return this;
        }

        /**
         * The lease column ({@code locked_until}) of the periodic republish: a record is written leased for the
         * republish age, and a republish claims an unprocessed record whose lease ran out.
         */
        public Builder<R> lease(Field<? extends Temporal> column) {
            problems.addAll(once("lease", this.lease));
            this.lease = Objects.requireNonNull(column, "lease");
            return this;
        }

        /**
         * When a record is done: once a tracking consumer acknowledges it, or once the broker confirms its send
         * (see {@link DoneWhen}). Unset, the transport decides: {@link DoneWhen#CONFIRMED} on RabbitMQ and Kafka,
         * {@link DoneWhen#ACKNOWLEDGED} on the in-memory broker and the table broker.
         */
        public Builder<R> doneWhen(DoneWhen when) {
            problems.addAll(once("doneWhen", this.doneWhen));
            this.doneWhen = Objects.requireNonNull(when, "doneWhen");
            return this;
        }

        /** The service's own fetch of a tracked delivery's record. */
        public Builder<R> ownFetch(OwnRecords.Fetch fetch) {
            return own(OutboxEvent.FETCH, fetch);
        }

        /** The service's own acknowledgement, retry or drop of a record. */
        public Builder<R> own(OutboxEvent event, OwnRecords.Settle settle) {
            if (event != OutboxEvent.ACK && event != OutboxEvent.RETRY && event != OutboxEvent.DROP) {
                problems.add("own(" + event + ", ..) takes a settlement (ACK, RETRY or DROP); " + event
                        + " is declared with " + (event == OutboxEvent.FETCH ? "ownFetch" : "ownRecover") + "(..)");
            }
            return own(event, (Object) settle);
        }

        /** The service's own read of the unprocessed records, for the republish at startup. */
        public Builder<R> ownRecover(OwnRecords.Recover recover) {
            return own(OutboxEvent.RECOVER, recover);
        }

        private Builder<R> own(OutboxEvent event, Object function) {
            Objects.requireNonNull(function, "own " + event);
            if (own.put(event, function) != null) {
                problems.add("own event " + event + " is set twice");
            }
            return this;
        }

        private static List<String> once(String setting, Object before) {
            return before == null ? List.of() : List.of(setting + "(..) is set twice");
        }

        /**
         * Checks every rule and returns the binding.
         *
         * @throws BindingException naming the table and every rule the declaration breaks
         */
        public OutboxBinding<R> build() {
            List<String> broken = new ArrayList<>(problems);
            Map<String, String> playedBy = new LinkedHashMap<>();
            column(playedBy, id, "id", broken);
            column(playedBy, name, "name", broken);
            column(playedBy, payload, "payload", broken);
            column(playedBy, headers, "headers", broken);
            column(playedBy, processedAt, "processedAt", broken);
            column(playedBy, lease, "lease", broken);
            Class<?> idType = id.getType();
            if (idType != Long.class && idType != Integer.class && idType != String.class && idType != UUID.class) {
                broken.add("id column \"" + id.getName() + "\" must hold Long, Integer, String or UUID (the id"
                        + " travels as text in the " + Outbox.ID_HEADER + " header), not " + idType.getSimpleName());
            }
            Class<?> payloadType = payload.getType();
            if (payloadType != byte[].class && payloadType != String.class && payloadType != JSON.class
                    && payloadType != JSONB.class) {
                broken.add("payload column \"" + payload.getName() + "\" must hold byte[], String, JSON or JSONB, not "
                        + payloadType.getSimpleName());
            }
            if (headers != null && headers.getType() != String.class && headers.getType() != JSON.class
                    && headers.getType() != JSONB.class) {
                broken.add("headers column \"" + headers.getName() + "\" must hold String, JSON or JSONB, not "
                        + headers.getType().getSimpleName());
            }
            if (!broken.isEmpty()) {
                throw new BindingException(qualified(table), "outbox: " + String.join("; ", broken));
            }
            return new OutboxBinding<>(this);
        }

        private void column(Map<String, String> playedBy, Field<?> f, String role, List<String> broken) {
            if (f == null) {
                return;
            }
            String before = playedBy.putIfAbsent(f.getName(), role);
            if (before != null) {
                broken.add("column \"" + f.getName() + "\" plays two roles: " + before + " and " + role);
            }
            if (f instanceof TableField<?, ?> tf && tf.getTable() != null && !tf.getTable().equals(table)) {
                broken.add("column \"" + f.getName() + "\" (" + role + ") is not a column of the table but of \""
                        + qualified(tf.getTable()) + "\"");
            } else if (table.fields().length > 0 && table.field(f.getName()) == null) {
                broken.add("column \"" + f.getName() + "\" (" + role + ") is not a column of the table");
            }
        }

        private static String qualified(Table<?> t) {
            return t.getSchema() == null || t.getSchema().getName().isEmpty()
                    ? t.getName()
                    : t.getSchema().getName() + "." + t.getName();
        }
    }
}
