package dev.tablequeue.dialect.extensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueDialects;
import dev.tablequeue.dialect.SqliteDialect;
import dev.tablequeue.test.contract.Jobs;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dialect of this module is found by the toolkit's detection through {@link java.util.ServiceLoader}, with
 * nothing in the toolkit naming it: a SQLite file reached through a driver that reports another product name.
 */
class SqliteCompatibleDialectsTest {
    /** A product name no built-in dialect matches. */
    private static final String PRODUCT = "LiteFork";

    @TempDir
    Path dir;
    private String url;

    @BeforeEach
    void file() throws Exception {
        url = "jdbc:sqlite:" + Files.createFile(dir.resolve("fork.db"));
    }

    @AfterEach
    void clearProperty() {
        System.clearProperty(SqliteCompatibleDialects.PRODUCTS);
    }

    @Test
    void detection_finds_the_extension_for_a_product_the_property_names() throws Exception {
        System.setProperty(SqliteCompatibleDialects.PRODUCTS, "other, " + PRODUCT.toLowerCase());
        try (Connection c = reportingAs(PRODUCT)) {
            QueueDialect dialect = QueueDialects.detect(c);
            // the built-in SQLite dialect under the product's name: nothing forwarded
            assertThat(dialect).isInstanceOf(SqliteDialect.class);
            assertThat(dialect.name()).isEqualTo("sqlite-compatible " + PRODUCT);
            // every statement is SQLite's, so the lease claim's rules are SQLite's too
            assertThat(dialect.sqlDialect()).isEqualTo(SQLDialect.SQLITE);
            assertThat(dialect.supportsForm(Form.ROW_LOCK)).isFalse();
            // the process keeps its advisory keys, per database file, as on SQLite
            Jobs jobs = new Jobs("jobs", SQLDataType.LOCALDATETIME);
            assertThat(dialect.keyLocks(Jobs.binding(jobs, Form.ADVISORY), c).inProcess()).isPresent();
        }
    }

    @Test
    void without_the_property_no_provider_serves_the_product_and_the_failure_says_so() throws Exception {
        try (Connection c = reportingAs(PRODUCT)) {
            assertThatThrownBy(() -> QueueDialects.detect(c))
                    .isInstanceOf(TableQueueException.class)
                    .hasMessageContaining("no dialect for " + PRODUCT)
                    .hasMessageContaining(SqliteCompatibleDialects.class.getName())
                    .hasMessageContaining("dev.tablequeue.dialect.BuiltInDialects");
        }
    }

    @Test
    void the_built_ins_still_serve_their_own_products() throws Exception {
        System.setProperty(SqliteCompatibleDialects.PRODUCTS, PRODUCT);
        try (Connection c = DriverManager.getConnection(url)) {
            assertThat(QueueDialects.detect(c).name()).isEqualTo("sqlite");
        }
    }

    @Test
    void a_broker_built_on_such_a_data_source_takes_the_extension() {
        System.setProperty(SqliteCompatibleDialects.PRODUCTS, PRODUCT);
        QueueBroker broker = QueueBroker.builder(dataSource()).poolSize(4).build();
        assertThat(broker.dialect().name()).isEqualTo("sqlite-compatible " + PRODUCT);
        broker.close();
    }

    /** A data source whose connections report {@link #PRODUCT}. */
    private DataSource dataSource() {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getConnection" -> reportingAs(PRODUCT);
                    case "toString" -> "data source of " + url;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A connection to the file whose metadata reports {@code product} as the database's name. */
    private Connection reportingAs(String product) throws SQLException {
        Connection real = DriverManager.getConnection(url);
        DatabaseMetaData meta = real.getMetaData();
        DatabaseMetaData renamed = (DatabaseMetaData) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DatabaseMetaData.class}, (proxy, method, args) -> method.getName()
                        .equals("getDatabaseProductName") ? product : invoke(meta, method, args));
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> method.getName().equals("getMetaData") ? renamed
                        : invoke(real, method, args));
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
