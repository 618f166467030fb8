package io.macrodb.jdbc.spring;

import io.macrodb.jdbc.MacroDriver;
import io.macrodb.runtime.config.ClusterConfig;
import org.apache.commons.logging.Log;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.sql.Driver;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Lets a Spring Boot application adopt MacroDB by changing its URL alone. Spring Boot picks the driver class of its
 * auto-configured DataSource from the URL's prefix; for one it does not know, such as {@code jdbc:macrodb:}, it falls
 * back to the embedded database on the class path, H2's driver, which refuses the URL (measured: "Driver
 * org.h2.Driver claims to not accept jdbcUrl"). Many applications also name that driver themselves
 * ({@code spring.datasource.driver-class-name=org.h2.Driver}). For a MacroDB URL this names MacroDB's driver
 * instead, and says so where it replaces one the application named, unless that one accepts the URL.
 *
 * <p>Spring Boot finds this class through {@code META-INF/spring.factories}; without Spring Boot nothing loads it. It
 * runs after the application's configuration files, command line and environment are read, and its setting takes
 * precedence over them. A URL that cannot be resolved yet (a placeholder for a property source added later) is left
 * to Spring Boot, as is any application that does not use a MacroDB URL.
 */
public final class SpringBootDriverClass implements EnvironmentPostProcessor, Ordered {

    /** Where a Spring Boot application gives its URL: Spring Boot's own property, or HikariCP's (bound over it). */
    static final List<String> URLS = List.of("spring.datasource.url", "spring.datasource.hikari.jdbc-url");
    /** Where it names the driver class: Spring Boot's property, or HikariCP's (bound over it). */
    static final List<String> DRIVER_CLASSES =
            List.of("spring.datasource.driver-class-name", "spring.datasource.hikari.driver-class-name");

    private final Log log;

    public SpringBootDriverClass(DeferredLogFactory logs) {
        this.log = logs.getLog(SpringBootDriverClass.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String url = URLS.stream().map(key -> resolvedOrNull(environment, key)).filter(ClusterConfig::accepts)
                .findFirst().orElse(null);
        if (url == null) {
            return;
        }
        Map<String, Object> drivers = new HashMap<>();
        for (String key : DRIVER_CLASSES) {
            String named = resolvedOrNull(environment, key);
            if (named == null || named.isBlank()) {
                drivers.put(key, MacroDriver.class.getName());
            } else if (!accepts(named.strip(), url, application.getClassLoader())) {
                drivers.put(key, MacroDriver.class.getName());
                log.info("MacroDB: " + key + " names " + named.strip() + ", which does not accept the MacroDB URL "
                        + url + "; using " + MacroDriver.class.getName() + " instead.");
            }
        }
        environment.getPropertySources().addFirst(new MapPropertySource("macrodb-driver-class", drivers));
    }

    /** The property's value, or null where it is unset or cannot be resolved yet. */
    private static String resolvedOrNull(ConfigurableEnvironment environment, String key) {
        try {
            return environment.getProperty(key);
        } catch (IllegalArgumentException unresolvable) {
            return null;
        }
    }

    /** Whether driver class {@code name} accepts {@code url}; a class that cannot be loaded or made does not. */
    private static boolean accepts(String name, String url, ClassLoader loader) {
        try {
            Object driver = Class.forName(name, true, loader).getDeclaredConstructor().newInstance();
            return driver instanceof Driver jdbc && jdbc.acceptsURL(url);
        } catch (ReflectiveOperationException | SQLException | LinkageError e) {
            return false;
        }
    }

    /** After Spring Boot has read the application's configuration (which runs at a higher precedence). */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
