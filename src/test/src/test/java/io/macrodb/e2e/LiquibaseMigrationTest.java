package io.macrodb.e2e;

import com.zaxxer.hikari.HikariDataSource;
import io.macrodb.api.MacroCluster;
import io.macrodb.api.ReplicaResult;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LiquibaseException;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Liquibase migrates a MacroDB database through a pooled connection: its change types (createTable with an
 * auto-increment key and a computed default, createSequence, insert, sql, addColumn with a constant default,
 * createIndex, update, addColumn with a computed default on a table that has rows), its DATABASECHANGELOG and its
 * lock table reach every replica, a second update finds nothing to do, and {@code verify()} proves the replicas
 * identical. Liquibase recognises the engine from the connection's metadata (the engine's product name), so the
 * {@code jdbc:macrodb:} URL needs nothing else.
 */
class LiquibaseMigrationTest {

    private static final String CHANGELOG = "db/liquibase/changelog.xml";

    @ParameterizedTest
    @EnumSource(Engine.class)
    @SuppressWarnings("deprecation") // Liquibase's facade: the shortest way to run a changelog on one connection
    void migratesAndEveryReplicaHasTheSchemaAndTheHistory(Engine engine) throws SQLException, LiquibaseException {
        MacroCluster cluster;
        try (HikariDataSource pool = Pools.hikari(engine.url(3), 2)) {
            try (Connection c = pool.getConnection()) {
                cluster = c.unwrap(MacroCluster.class);
                Database database = DatabaseFactory.getInstance()
                        .findCorrectDatabaseImplementation(new JdbcConnection(c));
                Liquibase liquibase = new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), database);
                liquibase.update(new Contexts(), new LabelExpression());
                assertEquals(0, liquibase.listUnrunChangeSets(new Contexts(), new LabelExpression()).size());
                liquibase.update(new Contexts(), new LabelExpression()); // nothing left to run
            }
            try (Connection c = pool.getConnection()) {
                Engine.execute(c, "INSERT INTO customer (email) VALUES ('grace@example.com')");
                c.setReadOnly(true);
                assertEquals(1, count(c, "SELECT COUNT(*) FROM customer WHERE tier = 'gold'"));
                c.commit();
            }
        }
        for (ReplicaResult<List<Long>> replica : cluster.queryEachReplica(c -> List.of(
                count(c, "SELECT COUNT(*) FROM DATABASECHANGELOG"),
                count(c, "SELECT COUNT(*) FROM customer WHERE joined IS NOT NULL"),
                count(c, "SELECT COUNT(*) FROM customer WHERE tier = 'basic'"),
                count(c, "SELECT COUNT(*) FROM orders")))) {
            assertEquals(List.of(4L, 3L, 2L, 1L), replica.value(), "replica " + replica.replica());
        }
        Engine.assertIdenticalAndShutdown(cluster); // tables, the sequence and the identity counter
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
