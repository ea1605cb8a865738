package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A fresh database of {@link FreshDatabase}'s for each test class of the starter suite, with the suite's
 * {@link JobTable} (on PostgreSQL and SQLite) and {@link OrderOutboxTable}: created before Spring loads the class's context, and dropped after it closes it
 * (registered on the class before {@code @SpringBootTest}, so its {@code afterAll} runs after Spring's). A
 * server that cannot be reached skips the class, or fails it under {@code TABLEQUEUE_REQUIRE_LIVE=1}.
 */
final class StarterDatabase implements BeforeAllCallback, AfterAllCallback {
    private static volatile FreshDatabase current;

    /** The database a test class of the suite runs on. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Inherited
    @interface On {
        Engine value();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> test = context.getRequiredTestClass();
        Engine engine = AnnotationSupport.findAnnotation(test, On.class)
                .orElseThrow(() -> new IllegalStateException(test.getName() + " names no @StarterDatabase.On"))
                .value();
        FreshDatabase db = FreshDatabase.create(engine, "spring_" + test.getSimpleName());
        if (engine != Engine.MARIADB) {
            db.execute(JobTable.ddl(engine));
        }
        db.execute(OrderOutboxTable.ddl(engine), LedgerService.DDL);
        current = db;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        FreshDatabase db = current;
        current = null;
        if (db != null) {
            db.close();
        }
    }

    /** The database of the test class running now. */
    static FreshDatabase current() {
        FreshDatabase db = current;
        if (db == null) {
            throw new IllegalStateException("no starter database: the test class is not extended with StarterDatabase");
        }
        return db;
    }

    /** The JDBC URL Boot's DataSource takes: SQLite waits for the write turn rather than failing at once. */
    static String url(FreshDatabase db) {
        return db.engine() == Engine.SQLITE ? db.url() + "?busy_timeout=10000" : db.url();
    }

    /** The properties that point a context at the current database. */
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> url(current()));
        registry.add("test.engine", () -> current().engine().name());
    }
}
