package io.macrodb.runtime.cluster;

import io.macrodb.api.ReplicaHealth;
import io.macrodb.api.ReplicaRole;
import io.macrodb.runtime.capture.TransactionCapture;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.Engines;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The other half of {@code CommitSequencer}'s rollbacks beside a schema change ({@code RollbackBesideSchemaChangeTest}
 * end to end has the first): a rollback already under way when a schema change's statement is about to run, which
 * did not see that statement, holds the statement back until it has ended. Else H2's {@code DROP INDEX} could remove
 * a map the rollback is undoing entries of.
 */
class RollbackBesideSchemaStatementTest {

    @Test
    void aSchemaChangeStatementWaitsForARollbackUnderWay() throws Exception {
        String url = "jdbc:h2:mem:rollback-beside-statement" + System.nanoTime();
        Engine engine = Engines.forUrl("h2:mem:x");
        Replica master = new Replica(0, url, ReplicaRole.MASTER, ReplicaHealth.HEALTHY);
        CommitSequencer sequencer = new CommitSequencer(engine, new TableCatalog(engine), master, 1000, 30_000);
        try (Connection writer = DriverManager.getConnection(url); Connection ddl = DriverManager.getConnection(url)) {
            writer.setAutoCommit(false);
            ddl.setAutoCommit(false);
            writer.createStatement().execute("CREATE TABLE t (id INT PRIMARY KEY)");
            writer.createStatement().execute("INSERT INTO t VALUES 1");
            CountDownLatch rollingBack = new CountDownLatch(1);
            CountDownLatch letGo = new CountDownLatch(1);
            Connection slowRollback = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("rollback") && args == null) {
                            rollingBack.countDown();
                            assertTrue(letGo.await(10, TimeUnit.SECONDS));
                        }
                        try {
                            return method.invoke(writer, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });

            CompletableFuture<Void> rollback = CompletableFuture.runAsync(() -> {
                try {
                    sequencer.rollback(master, slowRollback, new TransactionCapture(key -> null, List.of()));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(rollingBack.await(10, TimeUnit.SECONDS), "the rollback is under way, no statement running");
            AtomicBoolean statementRan = new AtomicBoolean();
            CompletableFuture<Void> schemaChange = CompletableFuture.runAsync(() -> {
                try {
                    sequencer.runSchemaChange(master, ddl, "CREATE TABLE u (id INT)", List.of(),
                            () -> sequencer.runSchemaChangeStatement(() -> {
                                statementRan.set(true);
                                return ddl.createStatement().execute("CREATE TABLE u (id INT)");
                            }));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            assertFalse(statementRan.get(), "the schema change's statement waits for the rollback under way");

            letGo.countDown();
            rollback.get(10, TimeUnit.SECONDS);
            schemaChange.get(10, TimeUnit.SECONDS);
            assertTrue(statementRan.get());
        }
    }
}
