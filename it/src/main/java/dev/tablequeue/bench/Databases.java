package dev.tablequeue.bench;

/** Database names as the report prints them. */
final class Databases {
    static final String POSTGRES = "postgres";
    static final String MARIADB = "mariadb";
    static final String SQLITE = "sqlite";

    private Databases() {}
}
