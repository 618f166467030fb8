package io.macrodb.e2e;

import com.zaxxer.hikari.HikariDataSource;
import io.macrodb.api.ClusterMetrics;
import io.macrodb.api.MacroCluster;
import io.macrodb.jdbc.MacroDriver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.autoconfigure.liquibase.LiquibaseAutoConfiguration;
import org.springframework.boot.autoconfigure.sql.init.SqlInitializationAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A Spring Boot application adopts MacroDB by changing {@code spring.datasource.url} alone. Spring Boot's DataSource
 * auto-configuration picks a driver class from the URL's prefix, and for {@code jdbc:macrodb:} it fell back to H2's
 * driver (H2 is on the class path), which refused the URL: the application did not start on either engine. Many
 * applications also name their engine's driver themselves; a MacroDB URL then needs MacroDB's driver all the same.
 * Both start now, with Spring Boot's own pool; Spring Boot runs its schema script (which it does for embedded
 * databases only), and a read-only transaction runs on a slave. Spring Boot's Flyway and Liquibase set-ups
 * migrate at startup.
 */
class SpringBootDataSourceTest {

    /** An application's configuration: Spring Boot's JDBC auto-configuration and nothing else. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
            JdbcTemplateAutoConfiguration.class, SqlInitializationAutoConfiguration.class})
    static class Application {
    }

    /** The same application with Spring Boot's Flyway set-up: migrations at startup, through the pool. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
            FlywayAutoConfiguration.class})
    static class FlywayApplication {
    }

    /** The same with Spring Boot's Liquibase set-up. */
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
            LiquibaseAutoConfiguration.class})
    static class LiquibaseApplication {
    }

    /** Each engine, its URL given as Spring Boot's or as HikariCP's property, with or without its driver named. */
    static Stream<Arguments> urlAndDriverNamed() {
        return Stream.of(Engine.values()).flatMap(engine -> Stream.of(
                Arguments.of(engine, "spring.datasource.url", null),
                Arguments.of(engine, "spring.datasource.hikari.jdbc-url", null),
                Arguments.of(engine, "spring.datasource.url",
                        engine == Engine.H2 ? "org.h2.Driver" : "org.hsqldb.jdbc.JDBCDriver")));
    }

    @ParameterizedTest(name = "{0}, {1}, driver class named: {2}")
    @MethodSource("urlAndDriverNamed")
    void theUrlIsAllAnApplicationChanges(Engine engine, String urlProperty, String driverClassNamed)
            throws Exception {
        List<String> arguments = new ArrayList<>(List.of("--" + urlProperty + "=" + engine.url(2),
                "--spring.sql.init.schema-locations=classpath:spring-boot-schema.sql"));
        if (driverClassNamed != null) {
            arguments.add("--spring.datasource.driver-class-name=" + driverClassNamed);
        }
        run(Application.class, arguments, (context, cluster) -> {
            DataSource dataSource = context.getBean(DataSource.class);
            assertEquals(MacroDriver.class.getName(), ((HikariDataSource) dataSource).getDriverClassName());
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            PlatformTransactionManager transactions = context.getBean(PlatformTransactionManager.class);
            new TransactionTemplate(transactions).executeWithoutResult(   // the table is the schema script's
                    status -> jdbc.update("INSERT INTO item VALUES (2, 'two')"));
            Engine.assertIdentical(cluster); // and every slave has caught up: the read goes to one of them
            long routedBefore = routedToSlaves(cluster.metrics());

            TransactionTemplate reads = new TransactionTemplate(transactions);
            reads.setReadOnly(true);
            Long items = reads.execute(status -> jdbc.queryForObject("SELECT COUNT(*) FROM item", Long.class));
            assertEquals(2L, items);
            assertEquals(routedBefore + 1, routedToSlaves(cluster.metrics()), "the read-only transaction ran on a slave");
        });
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void flywayMigratesAtStartup(Engine engine) throws Exception {
        run(FlywayApplication.class, List.of("--spring.datasource.url=" + engine.url(2),
                "--spring.flyway.locations=classpath:db/flyway"), (context, cluster) -> assertEquals(10L,
                context.getBean(JdbcTemplate.class).queryForObject("SELECT stock FROM product WHERE name = 'tea'",
                        Long.class), "both migrations ran"));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void liquibaseMigratesAtStartup(Engine engine) throws Exception {
        run(LiquibaseApplication.class, List.of("--spring.datasource.url=" + engine.url(2),
                "--spring.liquibase.change-log=classpath:db/liquibase/changelog.xml"), (context, cluster) ->
                assertEquals(1L, context.getBean(JdbcTemplate.class).queryForObject(
                        "SELECT COUNT(*) FROM customer WHERE tier = 'gold'", Long.class), "every change set ran"));
    }

    /** A check of a running application over its cluster. */
    @FunctionalInterface
    interface Check {
        void run(ConfigurableApplicationContext context, MacroCluster cluster) throws Exception;
    }

    /**
     * Starts {@code application}, runs {@code check} on it and proves its replicas identical. The cluster is shut
     * down after the application (whose own shutdown still uses the database), whether the check passed or not.
     */
    static void run(Class<?> application, List<String> arguments, Check check) throws Exception {
        SpringApplication spring = new SpringApplication(application);
        spring.setWebApplicationType(WebApplicationType.NONE);
        MacroCluster cluster = null;
        try {
            try (ConfigurableApplicationContext context = spring.run(arguments.toArray(String[]::new))) {
                try (Connection connection = context.getBean(DataSource.class).getConnection()) {
                    cluster = connection.unwrap(MacroCluster.class);
                }
                check.run(context, cluster);
                Engine.assertIdentical(cluster);
            }
        } finally {
            if (cluster != null) {
                cluster.shutdown();
            }
        }
    }

    static long routedToSlaves(ClusterMetrics metrics) {
        return metrics.replicas().stream().filter(r -> r.index() != 0)
                .mapToLong(ClusterMetrics.Replica::routedTransactions).sum();
    }
}
