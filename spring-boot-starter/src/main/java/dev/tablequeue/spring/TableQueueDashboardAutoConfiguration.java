package dev.tablequeue.spring;

import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dashboard.Dashboard;
import jakarta.servlet.http.HttpServlet;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The dashboard of {@code tablequeue-dashboard} mounted in a servlet web application at
 * {@code tablequeue.dashboard.path} (default {@code /actuator/tablequeue/}), where
 * {@code tablequeue.dashboard.enabled=true}: built on the service's broker, so it shows every queue the broker
 * serves, its deliveries in work, and pauses and resumes. With Boot's actuator the servlet is in the management
 * server ({@link TableQueueDashboardManagementConfiguration}: on {@code management.server.port} where that is a
 * port of its own); without it, in the application's servlet context. Either way it is behind the service's
 * filters and Spring Security.
 */
@AutoConfiguration(after = TableQueueAutoConfiguration.class)
@ConditionalOnClass({Dashboard.class, HttpServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean({QueueBroker.class, TableQueueProperties.class})
@ConditionalOnProperty(prefix = "tablequeue.dashboard", name = "enabled", havingValue = "true")
public class TableQueueDashboardAutoConfiguration {

    /**
     * Builds the dashboard once every handler bean is subscribed (a dashboard on the broker shows the queues the
     * broker serves at that moment), just before the broker and then the web server start.
     */
    @Bean
    TableQueueDashboardHolder tableQueueDashboardHolder(TableQueueProperties properties) {
        return new TableQueueDashboardHolder(properties.getDashboard());
    }

    /**
     * The servlet in the application's own servlet context, where Boot's actuator (so a management server) is
     * not on the class path; with it, {@link TableQueueDashboardManagementConfiguration} registers the servlet in
     * the management server instead.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration")
    static class WithoutManagementServer {
        @Bean
        ServletRegistrationBean<TableQueueDashboardServlet> tableQueueDashboardServlet(
                TableQueueProperties properties, TableQueueDashboardHolder holder) {
            return registration(properties, holder);
        }
    }

    /** The servlet at the dashboard's path (its every path below). */
    static ServletRegistrationBean<TableQueueDashboardServlet> registration(TableQueueProperties properties,
            TableQueueDashboardHolder holder) {
        ServletRegistrationBean<TableQueueDashboardServlet> registration = new ServletRegistrationBean<>(
                new TableQueueDashboardServlet(holder.dashboard::get), properties.getDashboard().getPath() + "*");
        registration.setName("tableQueueDashboard");
        return registration;
    }

    /** The dashboard, once the broker's handlers are subscribed. */
    static final class TableQueueDashboardHolder implements QueueBrokerCustomizer {
        private final TableQueueProperties.Dashboard settings;
        final AtomicReference<Dashboard> dashboard = new AtomicReference<>();

        TableQueueDashboardHolder(TableQueueProperties.Dashboard settings) {
            this.settings = settings;
        }

        @Override
        public void subscribed(QueueBroker broker) {
            if (broker.queues().isEmpty()) {
                return;     // nothing to show: the servlet answers 503 and says why
            }
            Dashboard.Builder builder = Dashboard.builder(broker).title(settings.getTitle())
                    .actions(settings.isActions());
            settings.getAllowedHosts().forEach(builder::allowHost);
            dashboard.set(builder.build());
        }
    }
}
