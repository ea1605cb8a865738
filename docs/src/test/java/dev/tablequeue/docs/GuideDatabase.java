package dev.tablequeue.docs;

import dev.tablequeue.binding.Form;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/** A database of the guide: its server, its DDL block, the forms it serves and how it states a plan. */
enum GuideDatabase {
    POSTGRES(Engine.POSTGRES, "ddl-postgresql", Set.of(Form.ROW_LOCK, Form.LEASE, Form.ADVISORY),
            "EXPLAIN ", "ANALYZE email_jobs"),
    MARIADB(Engine.MARIADB, "ddl-mariadb", Set.of(Form.ROW_LOCK, Form.LEASE, Form.ADVISORY),
            "EXPLAIN ", "ANALYZE TABLE email_jobs"),
    SQLITE(Engine.SQLITE, "ddl-sqlite", Set.of(Form.LEASE, Form.ADVISORY),
            "EXPLAIN QUERY PLAN ", "ANALYZE");

    private final Engine engine;
    private final String ddl;
    private final Set<Form> forms;
    private final String explain;
    private final String analyze;

    GuideDatabase(Engine engine, String ddl, Set<Form> forms, String explain, String analyze) {
        this.engine = engine;
        this.ddl = ddl;
        this.forms = forms;
        this.explain = explain;
        this.analyze = analyze;
    }

    Engine engine() {
        return engine;
    }

    /** The guide's marker of this database's DDL block. */
    String ddl() {
        return ddl;
    }

    boolean serves(Form form) {
        return forms.contains(form);
    }

    /** What goes before a statement to ask the server for its plan instead of running it. */
    String explain() {
        return explain;
    }

    /** Brings the planner's statistics of the guide's table up to date. */
    void analyze(Connection c) throws SQLException {
        try (var s = c.createStatement()) {
            s.execute(analyze);
        }
    }
}
