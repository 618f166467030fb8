package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * H2 is captured from its transaction's undo log (H2RowLog), read after each statement and folded by row: what H2
 * records there that no trigger saw (a row locked and not changed, a row written several times by one statement, an
 * UPDATE that H2 runs as a delete of every row and an insert of every new one, keys moving over each other) must reach
 * the slaves as the master's state, and what a statement or a savepoint undid must not. Each case ends with every
 * slave holding the master's rows and none failed (a slave fed a wrong row fails, and is rebuilt identical).
 */
public class H2RowLogTest {

    private static final int REPLICAS = 3;

    /** Two tables: one whose INT primary key is H2's row key, one with a composite key (H2 keys its rows itself). */
    private static Connection open() throws SQLException {
        Connection c = Engine.connect(Engine.H2.url(REPLICAS));
        Engine.execute(c, "CREATE TABLE item (id INT PRIMARY KEY, code VARCHAR(10) UNIQUE, qty INT, note CLOB)",
                "CREATE TABLE line (item INT, n INT, qty INT, PRIMARY KEY (item, n))",
                "CREATE TABLE loose (v INT, w VARCHAR(10))",
                "INSERT INTO item VALUES (1, 'a', 10, 'first'), (2, 'b', 20, NULL), (3, 'c', 30, NULL)",
                "INSERT INTO line VALUES (1, 1, 1), (1, 2, 2), (2, 1, 3)",
                "INSERT INTO loose VALUES (1, 'x'), (1, 'x'), (2, 'y')");
        c.setAutoCommit(false);
        return c;
    }

    @Test
    void rowsLockedMovedAndWrittenAgain() throws Exception {
        try (Connection c = open()) {
            try (ResultSet locked = c.createStatement().executeQuery("SELECT * FROM item WHERE id = 1 FOR UPDATE")) {
                locked.next(); // locked: in the undo log, and no change
            }
            Engine.execute(c, "INSERT INTO item VALUES (8, 'd', 40, 'new')",
                    "UPDATE item SET qty = qty + 1 WHERE id IN (1, 8)",
                    "UPDATE item SET qty = qty WHERE id = 2", // the same values written again
                    "INSERT INTO item VALUES (5, 'e', 50, NULL)",
                    "DELETE FROM item WHERE id = 5", // inserted, then deleted: nothing left to apply
                    "UPDATE item SET id = id + 1 WHERE id IN (1, 2, 3)", // row keys moving over each other
                    "UPDATE line SET n = n + 1 WHERE item = 1", // H2's own row keys stay; the primary key moves
                    "UPDATE line SET qty = qty * 10",
                    "UPDATE loose SET v = 3 WHERE v = 1 AND w = 'x' LIMIT 1", // one of two equal rows
                    "DELETE FROM loose WHERE v = 2");
            c.commit();
            assertEquals(List.of("2 a 11", "3 b 20", "4 c 30", "8 d 41"),
                    Engine.rows(c, "SELECT id, code, qty FROM item ORDER BY code"));
            assertEquals(List.of("1 2 10", "1 3 20", "2 1 30"), Engine.rows(c, "SELECT * FROM line ORDER BY item, n"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** A MERGE that updates one row twice and a statement that swaps unique values. */
    @Test
    void oneStatementChangingARowTwiceOrSwappingUniqueValues() throws Exception {
        try (Connection c = open()) {
            Engine.execute(c, "MERGE INTO item USING (VALUES (2, 5), (9, 9)) AS s(id, q) ON item.id = s.id "
                            + "WHEN MATCHED THEN UPDATE SET qty = s.q WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm', "
                            + "s.q, NULL)",
                    "UPDATE item SET code = CASE id WHEN 1 THEN 'b' ELSE 'a' END, qty = qty * 2 WHERE id IN (1, 2)");
            c.commit();
            assertEquals(List.of("1 b 20", "2 a 10", "3 c 30", "9 m 9"),
                    Engine.rows(c, "SELECT id, code, qty FROM item ORDER BY id"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    @Test
    void savepointsAndFailedStatementsLeaveOnlyWhatTheMasterKept() throws Exception {
        try (Connection c = open()) {
            Engine.execute(c, "INSERT INTO item VALUES (4, 'd', 40, NULL)");
            Savepoint savepoint = c.setSavepoint();
            Engine.execute(c, "UPDATE item SET qty = 0 WHERE id = 4", "DELETE FROM item WHERE id = 1");
            c.rollback(savepoint); // the update of a row this transaction inserted goes: the row stays inserted
            // fails at its second row (the key is taken): its first row goes with it
            assertThrows(SQLException.class,
                    () -> Engine.execute(c, "INSERT INTO item VALUES (6, 'f', 60, NULL), (2, 'g', 70, NULL)"));
            try (PreparedStatement batch = c.prepareStatement("UPDATE item SET code = ? WHERE id = ?")) {
                // the second takes 3's code and fails; H2 runs the third all the same
                for (Object[] row : new Object[][]{{"x", 4}, {"c", 1}, {"y", 2}}) {
                    batch.setString(1, (String) row[0]);
                    batch.setInt(2, (Integer) row[1]);
                    batch.addBatch();
                }
                assertThrows(BatchUpdateException.class, batch::executeBatch);
            }
            Engine.execute(c, "UPDATE item SET qty = qty + 1 WHERE id = 4");
            c.commit();
            assertEquals(List.of("1 a 10", "2 y 20", "3 c 30", "4 x 41"),
                    Engine.rows(c, "SELECT id, code, qty FROM item ORDER BY id"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** One statement of many rows, keys moving over each other in a table whose key is H2's row key. */
    @Test
    void statementsOfManyRows() throws Exception {
        try (Connection c = open()) {
            Engine.execute(c, "INSERT INTO item SELECT X + 10, 'k' || X, X, NULL FROM SYSTEM_RANGE(1, 40)",
                    "UPDATE item SET id = id + 1 WHERE id >= 11",
                    "DELETE FROM item WHERE MOD(id, 3) = 0",
                    "UPDATE item SET qty = qty * 2, note = 'n' || id WHERE id > 20");
            c.commit();
            assertEquals(List.of("28"), Engine.rows(c, "SELECT COUNT(*) FROM item"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** A table the catalog does not know (made behind MacroDB's back) is refused, its statement alone undone. */
    @Test
    void aRowNoSlaveCanTakeUndoesItsStatementOnly() throws Exception {
        try (Connection c = open()) {
            RowLogScenarios.unknownTableUndoesItsStatementOnly(c);
        }
    }

    /** A routine of the application's that commits on its own connection, H2's {@code jdbc:default:connection}. */
    public static int insertAndCommit(Connection connection, int id) throws SQLException {
        Engine.execute(connection, "INSERT INTO item VALUES (" + id + ", 'r" + id + "', 0, NULL)");
        connection.commit();
        return id;
    }

    /**
     * A routine that commits inside a statement commits on the master what no slave gets (the undo log it is captured
     * from goes with the commit): the statement fails as not replicable, and {@code verify()} finds the slaves
     * different and copies them again, after which they are the master's.
     */
    @Test
    void aRoutineThatCommitsIsRefusedAndVerifyMendsTheSlaves() throws Exception {
        try (Connection c = open()) {
            c.setAutoCommit(true);
            Engine.execute(c, "CREATE ALIAS insert_and_commit FOR '" + H2RowLogTest.class.getName()
                    + ".insertAndCommit'");
            c.setAutoCommit(false);
            Engine.execute(c, "UPDATE item SET qty = 11 WHERE id = 1");
            SQLException refused = assertThrows(SQLException.class, () -> Engine.execute(c,
                    "CALL insert_and_commit(7)"));
            assertEquals("0AM01", refused.getSQLState(), refused::getMessage);
            c.rollback();
            assertEquals(List.of("1 11", "7 0"), Engine.rows(c, "SELECT id, qty FROM item WHERE id IN (1, 7)"));
            c.commit(); // a copy from the master waits for its open transactions
            MacroCluster cluster = c.unwrap(MacroCluster.class);
            assertEquals(java.util.Set.of(1, 2), cluster.verify().differingReplicas());
            Engine.awaitAllHealthy(cluster, REPLICAS);
            Engine.assertIdenticalAndShutdown(c);
        }
    }

    /**
     * A file database a MacroDB that captured H2 with triggers left behind after a crash still holds them. Their class
     * is gone; the cluster drops them as it starts.
     */
    @Test
    void captureTriggersLeftInAFileDatabaseGo(@TempDir Path dir) throws Exception {
        String file = "h2:file:" + dir.resolve("shop").toAbsolutePath();
        try (Connection bare = Engine.connect("jdbc:" + file)) {
            Engine.execute(bare, "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
                    "CREATE FORCE TRIGGER PUBLIC.\"MACRODB_A_PUBLIC.T\" AFTER INSERT, UPDATE, DELETE ON t FOR EACH ROW "
                            + "CALL 'io.macrodb.runtime.engine.h2.H2CaptureTrigger'");
        }
        try (Connection c = Engine.connect("jdbc:macrodb:" + file + ";macrodb.replicas=2")) {
            assertEquals(List.of("0"), Engine.rows(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TRIGGERS"));
            Engine.execute(c, "INSERT INTO t VALUES (1, 1), (2, 2)", "UPDATE t SET v = 3 WHERE id = 1");
            Engine.assertReplicatedThenShutDown(c);
        }
    }
}
