package io.macrodb.jdbc.spring;

import io.macrodb.jdbc.MacroDriver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * What {@link SpringBootDriverClass} makes of an application's properties (the whole Spring Boot start-up is
 * {@code SpringBootDataSourceTest}'s, in src/test).
 */
class SpringBootDriverClassTest {

    private static final String DRIVER = "spring.datasource.driver-class-name";
    private static final String HIKARI_DRIVER = "spring.datasource.hikari.driver-class-name";
    private static final String MACRODB_URL = "jdbc:macrodb:h2:mem:shop;macrodb.replicas=2";

    private static StandardEnvironment after(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application", properties));
        new SpringBootDriverClass(new DeferredLogs()).postProcessEnvironment(environment, new SpringApplication());
        return environment;
    }

    @Test
    void aMacroDbUrlGetsMacroDbsDriverInBothPlaces() {
        StandardEnvironment environment = after(Map.of("spring.datasource.url", MACRODB_URL));
        assertEquals(MacroDriver.class.getName(), environment.getProperty(DRIVER));
        assertEquals(MacroDriver.class.getName(), environment.getProperty(HIKARI_DRIVER));
    }

    @Test
    void anEngineDriverNamedForAMacroDbUrlIsReplaced() {
        StandardEnvironment environment = after(Map.of("spring.datasource.hikari.jdbc-url", MACRODB_URL,
                HIKARI_DRIVER, "org.h2.Driver"));
        assertEquals(MacroDriver.class.getName(), environment.getProperty(HIKARI_DRIVER));
    }

    @Test
    void otherUrlsAreLeftAlone() {
        StandardEnvironment environment = after(Map.of("spring.datasource.url", "jdbc:h2:mem:shop",
                DRIVER, "org.h2.Driver"));
        assertEquals("org.h2.Driver", environment.getProperty(DRIVER));
        assertNull(environment.getProperty(HIKARI_DRIVER));
    }

    /** A placeholder for a property source added later (@PropertySource) must not stop the application starting. */
    @Test
    void aUrlNotResolvableYetIsLeftToSpringBoot() {
        StandardEnvironment environment = after(Map.of("spring.datasource.url", "${later.url}"));
        assertNull(environment.getPropertySources().get("macrodb-driver-class"));
    }
}
