package dev.tablequeue.maven.checker;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;
import java.util.ServiceLoader;

/**
 * Connections through the drivers of the checker's class loader. {@code DriverManager} is not used: in
 * process, the checker's drivers live in a class loader of their own, which DriverManager does not search.
 */
final class Jdbc {
    private Jdbc() {}

    static Connection connect(String url) throws SQLException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (Driver driver : ServiceLoader.load(Driver.class, loader)) {
            if (driver.acceptsURL(url)) {
                Connection c = driver.connect(url, new Properties());
                if (c != null) {
                    return c;
                }
            }
        }
        throw new SQLException("no JDBC driver on the check's class path takes " + Scratch.redacted(url));
    }
}
