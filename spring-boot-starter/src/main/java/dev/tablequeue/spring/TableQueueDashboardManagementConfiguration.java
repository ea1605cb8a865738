package dev.tablequeue.spring;

import dev.tablequeue.dashboard.Dashboard;
import dev.tablequeue.spring.TableQueueDashboardAutoConfiguration.TableQueueDashboardHolder;
import jakarta.servlet.http.HttpServlet;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The dashboard's servlet in the management server, where Boot's actuator is on the class path: on the
 * management port where {@code management.server.port} names one of its own (below
 * {@code management.server.base-path}), else on the application's port beside the actuator endpoints; not at
 * all where {@code management.server.port=-1}. On a port of its own the management server runs the application's
 * Spring Security filter chain too, so the page stays behind the service's own login.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnClass({Dashboard.class, HttpServlet.class, ServletRegistrationBean.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean(TableQueueDashboardHolder.class)
class TableQueueDashboardManagementConfiguration {

    /** The servlet at the dashboard's path, in the management server's servlet context. */
    @Bean
    ServletRegistrationBean<TableQueueDashboardServlet> tableQueueDashboardServlet(TableQueueProperties properties,
            TableQueueDashboardHolder holder) {
        return TableQueueDashboardAutoConfiguration.registration(properties, holder);
    }
}
