package dev.tablequeue.internal;

import dev.tablequeue.dialect.ProcessKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The advisory keys in work on SQLite, which has no locks a session holds: the process keeps them, by
 * database file and key. A key taken here is held until its {@link Hold} is released, whichever thread or
 * connection releases it.
 *
 * <p>One registry serves the whole process ({@link #process()}), so every broker and subscription on one
 * file sees the others' keys. It cannot see another process: two processes serving one file do not see
 * each other's keys, and a row may then be delivered twice. Keys are compared whole, so two keys never
 * wait for each other by accident.
 *
 * <p>Thread-safe and lock-free: a take is one {@code putIfAbsent}, a release one {@code remove(key, hold)}.
 */
public final class SqliteKeyRegistry {
    private static final SqliteKeyRegistry PROCESS = new SqliteKeyRegistry();

    private final ConcurrentHashMap<Entry, Hold> held = new ConcurrentHashMap<>();

    /** The registry of this process. Brokers use this one; tests may make their own. */
    public static SqliteKeyRegistry process() {
        return PROCESS;
    }

    /**
     * Takes {@code key} of {@code database} without waiting.
     *
     * @param database the database file, as {@link #databaseOf} names it
     * @return the hold, or empty where the key is already in work
     */
    public Optional<Hold> tryTake(String database, String key) {
        Entry entry = new Entry(database, key);
        Hold hold = new Hold(entry);
        return held.putIfAbsent(entry, hold) == null ? Optional.of(hold) : Optional.empty();
    }

    /**
     * The keys one holder (a subscription) takes in {@code database}: each hold it takes is kept by key, and
     * released by key.
     */
    public ProcessKeys keysOf(String database) {
        Objects.requireNonNull(database, "database");
        ConcurrentHashMap<String, Hold> holds = new ConcurrentHashMap<>();
        return new ProcessKeys() {
            @Override
            public boolean tryTake(String key) {
                Optional<Hold> hold = SqliteKeyRegistry.this.tryTake(database, key);
                hold.ifPresent(h -> holds.put(key, h));
                return hold.isPresent();
            }

            @Override
            public boolean release(String key) {
                Hold hold = holds.remove(key);
                return hold != null && hold.release();
            }

            @Override
            public int held() {
                return heldKeys(database).size();
            }

            @Override
            public boolean isHeld(String key) {
                return SqliteKeyRegistry.this.isHeld(database, key);
            }
        };
    }

    /** Whether {@code key} of {@code database} is in work. */
    public boolean isHeld(String database, String key) {
        return held.containsKey(new Entry(database, key));
    }

    /** The keys of {@code database} in work now, sorted. */
    public Set<String> heldKeys(String database) {
        Objects.requireNonNull(database, "database");
        Set<String> keys = new TreeSet<>();
        for (Entry e : held.keySet()) {
            if (e.database.equals(database)) {
                keys.add(e.key);
            }
        }
        return keys;
    }

    /**
     * The name a registry keys {@code connection}'s database by: the real path of its main file, so two
     * URLs of one file (relative, absolute, through a link) share their keys. A database without a file (in
     * memory, or a temporary one) has no name that another connection shares, and is refused.
     */
    public static String databaseOf(Connection connection) throws SQLException {
        String file = null;
        try (java.sql.Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA database_list")) {
            while (rs.next()) {
                if ("main".equals(rs.getString("name"))) {
                    file = rs.getString("file");
                }
            }
        }
        if (file == null || file.isEmpty()) {
            throw new SQLException("advisory keys are kept per database file, and this SQLite database has no"
                    + " file (in memory or temporary)");
        }
        Path path = Path.of(file);
        try {
            return path.toRealPath().toString();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize().toString();
        }
    }

    private record Entry(String database, String key) {
        Entry {
            Objects.requireNonNull(database, "database");
            Objects.requireNonNull(key, "key");
        }
    }

    /** A key in work. Releasing it twice is harmless: the second release does nothing. */
    public final class Hold implements AutoCloseable {
        private final Entry entry;
        private final AtomicBoolean released = new AtomicBoolean();

        private Hold(Entry entry) {
            this.entry = entry;
        }

        /** The database file the key belongs to. */
        public String database() {
            return entry.database;
        }

        /** The key. */
        public String key() {
            return entry.key;
        }

        /** Puts the key back; true the first time, false where this hold was already released. */
        public boolean release() {
            return released.compareAndSet(false, true) && held.remove(entry, this);
        }

        /** Same as {@link #release()}. */
        @Override
        public void close() {
            release();
        }

        @Override
        public String toString() {
            return "Hold[" + entry.database + ", " + entry.key + (released.get() ? ", released]" : "]");
        }
    }
}
