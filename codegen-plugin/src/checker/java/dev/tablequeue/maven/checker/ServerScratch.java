package dev.tablequeue.maven.checker;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database of a unique name ({@code tqcheck_<random>}) made on a server through its administrative URL,
 * and dropped when the check is done, also when it fails or the JVM is stopped: several builds may check on
 * one server at once.
 */
final class ServerScratch implements Scratch {
    private static final Pattern SERVER_URL = Pattern.compile("^(jdbc:([a-z]+)://[^/?]+)(/[^?]*)?(\\?.*)?$");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The servers a URL may name, with how each makes and drops a database. */
    enum Kind {
        POSTGRESQL("postgresql") {
            @Override
            String create(String name) {
                return "CREATE DATABASE \"" + name + "\"";
            }

            @Override
            String[] drop(String name) {
                // WITH (FORCE) (PostgreSQL 13+) ends a session a failed check left open; older servers take the plain form.
                return new String[] {"DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)",
                        "DROP DATABASE IF EXISTS \"" + name + "\""};
            }
        },
        MARIADB("mariadb"),
        MYSQL("mysql");

        final String scheme;

        Kind(String scheme) {
            this.scheme = scheme;
        }

        String create(String name) {
            return "CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4";
        }

        String[] drop(String name) {
            return new String[] {"DROP DATABASE IF EXISTS `" + name + "`"};
        }

        static Kind of(String scheme) {
            for (Kind k : values()) {
                if (k.scheme.equals(scheme)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("the check takes jdbc:postgresql:, jdbc:mariadb: and jdbc:mysql: URLs,"
                    + " not jdbc:" + scheme + ":");
        }
    }

    private final String label;
    private final String admin;
    private final Kind kind;
    private final String name;
    private final Thread dropOnExit;
    private boolean dropped;

    private ServerScratch(String label, String admin, Kind kind, String name) {
        this.label = label;
        this.admin = admin;
        this.kind = kind;
        this.name = name;
        this.dropOnExit = new Thread(this::drop, "tablequeue-check-drop-" + name);
    }

    /** The kind of server {@code url} names ("postgresql", "mariadb", "mysql"). */
    static Kind kind(String url) {
        Matcher m = SERVER_URL.matcher(url);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a JDBC server URL (jdbc:<kind>://host[:port]/[database][?..]): "
                    + Scratch.redacted(url));
        }
        return Kind.of(m.group(2).toLowerCase(Locale.ROOT));
    }

    /**
     * Makes a scratch database on the server of {@code admin}.
     *
     * @throws SQLException where the server cannot be reached or refuses the database
     */
    static ServerScratch create(String label, String admin) throws SQLException {
        Kind kind = kind(admin);
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        String name = "tqcheck_" + HexFormat.of().formatHex(bytes);
        try (Connection c = Jdbc.connect(admin); Statement s = c.createStatement()) {
            s.execute(kind.create(name));
        }
        ServerScratch scratch = new ServerScratch(label == null ? kind.scheme : label, admin, kind, name);
        Runtime.getRuntime().addShutdownHook(scratch.dropOnExit);
        return scratch;
    }

    /** The scratch database's name. */
    String name() {
        return name;
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String url() {
        Matcher m = SERVER_URL.matcher(admin);
        if (!m.matches()) {
            throw new IllegalStateException("not a JDBC server URL: " + Scratch.redacted(admin));
        }
        return m.group(1) + "/" + name + (m.group(4) == null ? "" : m.group(4));
    }

    @Override
    public void close() {
        drop();
        try {
            Runtime.getRuntime().removeShutdownHook(dropOnExit);
        } catch (IllegalStateException e) {
            // the JVM is shutting down, and the hook has run or runs now
        }
    }

    private synchronized void drop() {
        if (dropped) {
            return;
        }
        SQLException last = null;
        for (String sql : kind.drop(name)) {
            try (Connection c = Jdbc.connect(admin); Statement s = c.createStatement()) {
                s.execute(sql);
                dropped = true;
                return;
            } catch (SQLException e) {
                last = e;
            }
        }
        throw new IllegalStateException("cannot drop the scratch database " + name + " on " + Scratch.redacted(admin)
                + ": " + last.getMessage(), last);
    }
}
