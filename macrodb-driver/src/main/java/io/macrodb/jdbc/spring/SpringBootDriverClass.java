package io.macrodb.jdbc.spring;

import io.macrodb.jdbc.MacroDriver;
import io.macrodb.runtime.config.ClusterConfig;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.sql.Driver;
import java.util.List;
import java.util.Map;

/**
 * Lets a Spring Boot application adopt MacroDB by changing {@code spring.datasource.url} alone. Spring Boot picks the
 * driver class of its auto-configured DataSource from the URL's prefix; for one it does not know, such as
 * {@code jdbc:macrodb:}, it falls back to the embedded database on the class path, H2's driver, which refuses the URL
 * (measured: "Driver org.h2.Driver claims to not accept jdbcUrl"). Many applications also name that driver
 * themselves ({@code spring.datasource.driver-class-name=org.h2.Driver}). For a MacroDB URL this names MacroDB's
 * driver instead, unless the application named a driver that accepts the URL.
 *
 * <p>Spring Boot finds this class through {@code META-INF/spring.factories}; without Spring Boot nothing loads it. It
 * runs after the application's own configuration is read, and its setting takes precedence over it.
 */
public final class SpringBootDriverClass implements EnvironmentPostProcessor, Ordered {

    /** Where a Spring Boot application gives its URL: Spring Boot's own property, or HikariCP's (bound over it). */
    static final List<String> URLS = List.of("spring.datasource.url", "spring.datasource.hikari.jdbc-url");
    static final String DRIVER_CLASS = "spring.datasource.driver-class-name";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String url = URLS.stream().map(environment::getProperty).filter(ClusterConfig::accepts).findFirst()
                .orElse(null);
        if (url == null) {
            return;
        }
        String named = environment.getProperty(DRIVER_CLASS);
        if (named != null && !named.isBlank() && accepts(named.strip(), url, application.getClassLoader())) {
            return;
        }
        environment.getPropertySources().addFirst(
                new MapPropertySource("macrodb-driver-class", Map.of(DRIVER_CLASS, MacroDriver.class.getName())));
    }

    /** Whether driver class {@code name} accepts {@code url}; a class that cannot be loaded or made does not. */
    private static boolean accepts(String name, String url, ClassLoader loader) {
        try {
            Object driver = Class.forName(name, true, loader).getDeclaredConstructor().newInstance();
            return driver instanceof Driver jdbc && jdbc.acceptsURL(url);
        } catch (ReflectiveOperationException | java.sql.SQLException | LinkageError e) {
            return false;
        }
    }

    /** After Spring Boot has read the application's configuration files (which run at a higher precedence). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
