package dev.tablequeue.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The adoption guide's DDL on one database, run by a small subclass per database: the block runs as it is, the
 * table it creates serves every form the database takes end to end, and the claim of each form uses the index
 * the guide names.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GuideTablesContract {
    static final String INDEX = "email_jobs_claim";
    /** The group whose rows the plans are asked for: many acknowledged rows and a few open ones, never claimed. */
    private static final String EXPLAINED = "emails";

    private FreshDatabase database;
    private HikariDataSource pool;
    private QueueDialect dialect;
    private GuideTable table;

    protected abstract GuideDatabase db();

    @BeforeAll
    void runTheGuidesDdl() throws SQLException {
        database = FreshDatabase.create(db().engine(), getClass().getSimpleName());
        pool = database.pool(6);
        database.execute(Guide.adopting().statements(db().ddl()).toArray(String[]::new));
        try (Connection c = pool.getConnection()) {
            dialect = QueueDialects.detect(c);
            table = new GuideTable(described(c, dialect), db() == GuideDatabase.SQLITE, defaults(c));
            fillForThePlanner(c);
        }
    }

    @AfterAll
    void dropDatabase() {
        if (pool != null) {
            pool.close();
        }
        if (database != null) {
            database.close();
        }
    }

    /** The default of each column of email_jobs, as the driver reports it. */
    private static Map<String, String> defaults(Connection c) throws SQLException {
        Map<String, String> defaults = new java.util.HashMap<>();
        try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), null, "email_jobs", null)) {
            while (rs.next()) {
                if (rs.getString("COLUMN_DEF") != null) {
                    defaults.put(rs.getString("COLUMN_NAME"), rs.getString("COLUMN_DEF"));
                }
            }
        }
        return defaults;
    }

    /**
     * The table as the database describes it, through jOOQ's {@code Meta}, read while {@code c} is open (on
     * MariaDB through jOOQ's MySQL dialect: its MariaDB dialect reads information_schema columns MariaDB 10 lacks).
     */
    private static Table<?> described(Connection c, QueueDialect dialect) {
        SQLDialect meta = dialect.sqlDialect() == SQLDialect.MARIADB ? SQLDialect.MYSQL : dialect.sqlDialect();
        return DSL.using(c, meta).meta().getTables().stream().filter(t -> t.getName().equalsIgnoreCase("email_jobs")).findFirst()
                .orElseThrow(() -> new IllegalStateException("the guide's DDL created no table email_jobs"));
    }

    /**
     * 20,000 acknowledged rows and 20 open ones in the explained group, and 200 open rows of another, then fresh
     * statistics: a table where a claim that reads the whole group or the whole table would cost, so the planner
     * takes the index where the index serves the claim.
     */
    private void fillForThePlanner(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try (PreparedStatement done = c.prepareStatement(
                "INSERT INTO email_jobs (name, processed_at, payload) VALUES (?, retry_after_now, ?)"
                        .replace("retry_after_now", processedNow()));
                PreparedStatement open = c.prepareStatement("INSERT INTO email_jobs (name, payload) VALUES (?, ?)")) {
            for (int i = 0; i < 20_000; i++) {
                done.setString(1, EXPLAINED);
                done.setBytes(2, new byte[] {'1'});
                done.addBatch();
            }
            done.executeBatch();
            for (int i = 0; i < 220; i++) {
                open.setString(1, i < 20 ? EXPLAINED : "elsewhere");
                open.setBytes(2, new byte[] {'1'});
                open.addBatch();
            }
            open.executeBatch();
            c.commit();
        } finally {
            c.setAutoCommit(auto);
        }
        db().analyze(c);
    }

    /** The database's "now" in the table's time layout, for the acknowledged rows the fill writes. */
    private String processedNow() {
        return switch (db()) {
            case POSTGRES -> "now()";
            case MARIADB -> "UTC_TIMESTAMP(6)";
            case SQLITE -> "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')";
        };
    }

    private RoleBinding<Record> binding(Form form) {
        return switch (form) {
            case ROW_LOCK -> table.emailJobs().build();
            case LEASE -> table.lease();
            case ADVISORY -> table.emailJobs().advisory("email_jobs-{id}").build();
        };
    }

    /** Publishes one message with a header into the group named for {@code form} and waits for its handler and its ack. */
    private void runsAMessageThrough(Form form) {
        RoleBinding<Record> binding = binding(form);
        String group = form.name().toLowerCase();
        Map<String, String> seen = new ConcurrentHashMap<>();
        QueueBroker broker = QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50)).route(group, binding).build();
        try {
            broker.subscribe(InboxQueue.of(binding, group)).payload(String.class).handle((text, delivery) -> {
                seen.put(text, delivery.headers().getOrDefault("tenant", "") + "/" + delivery.attempt().orElse(-1));
                return Outcome.ack();
            });
            broker.start();
            broker.publisher().publish(Message.of(group, "hello").header("tenant", "acme"));
            await().atMost(Duration.ofSeconds(20)).until(() -> seen.containsKey("hello"));
            assertThat(seen).containsEntry("hello", "acme/1");
            Field<?> processed = table.field("processed_at");
            Field<?> name = table.field("name");
            await().atMost(Duration.ofSeconds(20)).until(() -> DSL.using(pool, dialect.sqlDialect())
                    .fetchCount(table, DSL.field(name.getQualifiedName()).eq(group)
                            .and(DSL.field(processed.getQualifiedName()).isNotNull())) == 1);
        } finally {
            broker.close();
        }
    }

    /** Starts a broker on the guide's table in the row lock form, and closes it. */
    void startRowLock() {
        RoleBinding<Record> binding = binding(Form.ROW_LOCK);
        QueueBroker broker = QueueBroker.builder(pool).build();
        try {
            broker.subscribe(InboxQueue.of(binding, "row_lock")).payload(String.class).handle((t, d) -> Outcome.ack());
            broker.start();
        } finally {
            broker.close();
        }
    }

    /** The server's plan of the claim {@code form} runs, as text. */
    private String claimPlan(Form form) throws SQLException {
        Statement claim = SubscriptionStatements.build(dialect, binding(form), ClaimShape.ROLES, false, null).all()
                .get(0);
        Instant now = Instant.now();
        Binds binds = new Binds().group(EXPLAINED).now(now).limit(4).leaseUntil(now.plusSeconds(30))
                .leaseHeld(now.plusSeconds(30));
        List<String> plan = new ArrayList<>();
        try (Connection c = pool.getConnection();
                PreparedStatement ps = c.prepareStatement(db().explain() + claim.sql())) {
            StatementBinder.bind(ps, claim, binds, dialect);
            try (ResultSet rs = ps.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        row.append(rs.getMetaData().getColumnLabel(i)).append('=').append(rs.getString(i)).append(' ');
                    }
                    plan.add(row.toString());
                }
            }
        }
        return String.join("\n", plan) + "\n[" + claim.sql() + "]";
    }

    /** One test per form the database serves (SQLite: no row lock; its refusal has a test of its own). */
    private Stream<DynamicTest> perForm(String what, Executable test) {
        return Stream.of(Form.values()).filter(db()::serves)
                .map(form -> DynamicTest.dynamicTest(form.name().toLowerCase() + ": " + what, () -> test.run(form)));
    }

    @FunctionalInterface
    private interface Executable {
        void run(Form form) throws Exception;
    }

    @TestFactory
    final Stream<DynamicTest> each_form_the_database_serves_runs_a_message_through_the_guides_table() {
        return perForm("a message runs through the guide's table", this::runsAMessageThrough);
    }

    @TestFactory
    final Stream<DynamicTest> the_claim_of_each_form_the_database_serves_uses_the_guides_index() {
        return perForm("the claim uses " + INDEX, form -> assertThat(claimPlan(form)).contains(INDEX));
    }

    @Test
    final void the_database_reports_the_guides_defaults_nullability_and_claim_index() throws SQLException {
        try (Connection c = pool.getConnection()) {
            assertThat(described(c, dialect).getIndexes()).extracting(i -> i.getName().toLowerCase()).contains(INDEX);
        }
        assertThat(table.field("attempt").getDataType().defaulted()).isTrue();
        assertThat(table.field("processed_at").getDataType().nullable()).isTrue();
        assertThat(table.field("retry_after").getDataType().nullable()).isFalse();
    }
}
