package dev.tablequeue.dialect;

import dev.tablequeue.ServerTooOldException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MySQL or MariaDB server as JDBC's {@code DatabaseMetaData} describes it, and the oldest of each that the
 * MySQL dialect serves.
 *
 * <p>MariaDB's own driver reports "MariaDB" and a version such as {@code 10.11.19-MariaDB-0+deb12u1}; reached
 * through mysql-connector-j, the same server reports "MySQL" and a version carrying "MariaDB", before 11.0
 * behind the {@code 5.5.5-} prefix MariaDB sends to clients that expect MySQL. The word MariaDB in either
 * string therefore decides the server, and the prefix is dropped.
 *
 * @param mariaDb whether the server is MariaDB (else MySQL)
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version
 */
record MySqlServer(boolean mariaDb, int major, int minor, int patch) {
    /** SKIP LOCKED came with MySQL 8.0.1. */
    static final MySqlServer MYSQL_FLOOR = new MySqlServer(false, 8, 0, 1);
    /** SKIP LOCKED (and OFFSET .. FETCH, which jOOQ renders for MariaDB) came with MariaDB 10.6. */
    static final MySqlServer MARIADB_FLOOR = new MySqlServer(true, 10, 6, 0);

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");
    private static final String MARIADB_PREFIX = "5.5.5-";

    /**
     * Reads a server from {@code DatabaseMetaData}'s product name and version.
     *
     * @throws IllegalArgumentException for a product that is neither, or a version without numbers
     */
    static MySqlServer of(String productName, String productVersion) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        String version = productVersion == null ? "" : productVersion.trim();
        boolean mariaDb = product.contains("mariadb") || version.toLowerCase(Locale.ROOT).contains("mariadb");
        if (!mariaDb && !product.contains("mysql")) {
            throw new IllegalArgumentException("not a MySQL or MariaDB server: \"" + productName + "\"");
        }
        if (mariaDb && version.startsWith(MARIADB_PREFIX)) {
            version = version.substring(MARIADB_PREFIX.length());
        }
        Matcher m = VERSION.matcher(version);
        if (!m.find()) {
            throw new IllegalArgumentException("cannot read the version of " + productName + " from \""
                    + productVersion + "\"");
        }
        return new MySqlServer(mariaDb, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
    }

    /** The oldest server of this kind the dialect serves. */
    MySqlServer floor() {
        return mariaDb ? MARIADB_FLOOR : MYSQL_FLOOR;
    }

    /** Refuses a server older than its floor. */
    MySqlServer requireFloor(String reportedVersion) {
        MySqlServer floor = floor();
        if (compare(floor) < 0) {
            throw new ServerTooOldException(product(), reportedVersion, floor.version(),
                    "FOR UPDATE SKIP LOCKED");
        }
        return this;
    }

    /** "MariaDB" or "MySQL". */
    String product() {
        return mariaDb ? "MariaDB" : "MySQL";
    }

    /** major.minor.patch */
    String version() {
        return major + "." + minor + "." + patch;
    }

    private int compare(MySqlServer other) {
        int c = Integer.compare(major, other.major);
        if (c == 0) {
            c = Integer.compare(minor, other.minor);
        }
        return c == 0 ? Integer.compare(patch, other.patch) : c;
    }
}
