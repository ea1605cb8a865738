package dev.tablequeue.maven.checker;

/**
 * A database made for one check and gone after it: a SQLite file, a database of its own on a server, or a
 * container.
 */
interface Scratch extends AutoCloseable {
    /** The name the report gives the database: the configured id, else its kind ("sqlite", "postgresql", ..). */
    String label();

    /** The JDBC URL of the scratch database. */
    String url();

    /** Drops the database (deletes the file, stops the container). */
    @Override
    void close();

    /** {@code url} with any password in it masked, for messages. */
    static String redacted(String url) {
        return url == null ? null : url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
