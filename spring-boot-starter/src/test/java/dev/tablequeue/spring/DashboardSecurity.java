package dev.tablequeue.spring;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The mounting service's own security, as the Spring Boot page recommends it: every request logs in (HTTP basic,
 * user {@code ops}); Spring's CSRF check is left out on the dashboard's path, whose forms carry the dashboard's
 * own CSRF token (and are checked for their Origin) rather than Spring's.
 */
@Configuration(proxyBeanMethods = false)
class DashboardSecurity {
    static final String USER = "ops";
    static final String PASSWORD = "ops-password-for-the-test";

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/actuator/tablequeue/**"))
                .build();
    }
}
