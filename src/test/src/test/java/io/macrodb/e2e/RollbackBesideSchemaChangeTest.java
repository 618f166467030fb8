package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * An update transaction rolled back on H2 while a schema change's statement runs on the master (found 2026-11-30 by
 * {@code SchemaChangeUnderLoadTest} run in a loop). H2's {@code DROP INDEX} takes no lock, and removed the index's map
 * while a writer that had written into it rolled back: H2 failed the rollback halfway, the rows it had not undone
 * stayed committed on the master alone, and every later transaction given its id failed. MacroDB rolls such a writer
 * back itself when its statement ran beside the change's start, so it did while the change ran. Now a rollback waits
 * for the statement to end, unless the statement waits for a table lock the rolling-back transaction holds (it has
 * not begun then, and waiting would hold both until H2's lock timeout).
 */
class RollbackBesideSchemaChangeTest {

    private final HangWatch hangs = new HangWatch("rollback-beside-schema-change");

    @AfterEach
    void closeConnections() throws InterruptedException {
        hangs.close();
    }

    @Test
    void aRollbackWaitsForTheSchemaChangeUnlessTheChangeWaitsForIt() throws Exception {
        String url = Engine.H2.url(2);
        Connection setup = hangs.open(url);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY, v INT)", "CREATE TABLE u (id INT PRIMARY KEY, v INT)");
        Connection holder = hangs.open(url); // holds u's lock, which the schema change waits for
        holder.setAutoCommit(false);
        Engine.execute(holder, "INSERT INTO u VALUES (1, 1)");
        Connection writer = hangs.open(url); // holds t's lock only
        writer.setAutoCommit(false);
        Engine.execute(writer, "INSERT INTO t VALUES (1, 1)");
        Connection ddl = hangs.open(url);
        Engine.execute(ddl, "SET LOCK_TIMEOUT 20000");
        MacroCluster cluster = setup.unwrap(MacroCluster.class);

        Future<?> indexing = hangs.start(() -> {
            Engine.execute(ddl, "CREATE INDEX uv ON u (v)");
            return null;
        });
        awaitStatementWaiting(cluster.replicas().get(0).database(), "CREATE INDEX");
        Future<?> rollingBack = hangs.start(() -> {
            writer.rollback();
            return null;
        });
        Thread.sleep(300);
        assertFalse(rollingBack.isDone(), "the writer's rollback waits while CREATE INDEX runs beside it");
        assertFalse(indexing.isDone(), "CREATE INDEX still waits for u's lock");

        holder.rollback(); // CREATE INDEX waits for this one's lock: it rolls back at once, no deadlock
        HangWatch.within(indexing, 10);
        HangWatch.within(rollingBack, 10);

        assertEquals(List.of("0"), Engine.rows(setup, "SELECT COUNT(*) FROM t"));
        assertEquals(List.of("0"), Engine.rows(setup, "SELECT COUNT(*) FROM u"));
        Engine.execute(writer, "INSERT INTO t VALUES (1, 1)"); // its transaction's id is usable again
        writer.commit();
        Engine.assertIdenticalAndNoneFailed(cluster);
    }

    /** Waits until a session of the master's database runs a statement beginning {@code prefix} (ours: waiting). */
    private static void awaitStatementWaiting(String masterDatabase, String prefix) throws Exception {
        try (Connection observer = DriverManager.getConnection(masterDatabase)) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Engine.rows(observer, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE EXECUTING_STATEMENT "
                    + "LIKE '" + prefix + "%'").equals(List.of("0"))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no session ran " + prefix);
                }
                Thread.sleep(10);
            }
        } catch (SQLException e) {
            throw new AssertionError("cannot watch the master's sessions", e);
        }
    }
}
