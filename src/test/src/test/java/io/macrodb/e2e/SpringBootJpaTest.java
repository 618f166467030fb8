package io.macrodb.e2e;

import io.macrodb.e2e.boot.Note;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.domain.EntityScan;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spring Boot's JPA set-up (Hibernate, {@code JpaTransactionManager}) over a MacroDB URL, as a Spring Data JPA
 * application has it: the schema made by Hibernate at startup ({@code create-drop}, Spring Boot's default for an
 * embedded database), entities written in read-write transactions, and a read-only transaction
 * ({@code @Transactional(readOnly = true)}) run on a slave. Spring's JPA dialect marks the JDBC connection read-only
 * before the transaction begins, which is what routes it; nothing MacroDB-specific is configured.
 */
class SpringBootJpaTest {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class})
    @EntityScan(basePackageClasses = Note.class)
    static class Application {
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void readOnlyJpaTransactionsRunOnASlave(Engine engine) throws Exception {
        SpringBootDataSourceTest.run(Application.class, List.of("--spring.datasource.url=" + engine.url(2)),
                (context, cluster) -> {
                    // What @PersistenceContext injects: an EntityManager bound to the running Spring transaction.
                    EntityManager entities = SharedEntityManagerCreator.createSharedEntityManager(
                            context.getBean(EntityManagerFactory.class));
                    PlatformTransactionManager transactions = context.getBean(PlatformTransactionManager.class);
                    TransactionTemplate writes = new TransactionTemplate(transactions);
                    for (int i = 0; i < 3; i++) {
                        String text = "note " + i;
                        writes.executeWithoutResult(status -> entities.persist(new Note(text)));
                    }
                    Engine.assertIdentical(cluster); // and every slave has caught up: a read goes to one of them
                    long routedBefore = SpringBootDataSourceTest.routedToSlaves(cluster.metrics());

                    TransactionTemplate reads = new TransactionTemplate(transactions);
                    reads.setReadOnly(true);
                    List<String> texts = reads.execute(status -> entities
                            .createQuery("SELECT n.text FROM Note n ORDER BY n.id", String.class).getResultList());
                    assertEquals(List.of("note 0", "note 1", "note 2"), texts);
                    assertEquals(routedBefore + 1, SpringBootDataSourceTest.routedToSlaves(cluster.metrics()),
                            "the read-only transaction ran on a slave");
                });
    }
}
