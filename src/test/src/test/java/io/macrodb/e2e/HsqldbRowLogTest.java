package io.macrodb.e2e;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * HSQLDB is captured from its session's own list of the rows a transaction inserted and deleted (HsqldbRowLog), read
 * after each statement, in each of HSQLDB's three transaction modes, whose lists differ: in LOCKS mode every entry is a
 * row action of its own, in MVCC and MVLOCKS modes a row's actions form one chain that the list names again for each.
 * Each case writes what the list makes hard to read (an update is a delete and an insert; a row inserted and deleted
 * by one statement or one transaction; savepoints; a statement or batch element that fails), then requires every
 * slave to hold the master's rows without any having failed (a slave fed a wrong row fails, and is rebuilt identical).
 */
class HsqldbRowLogTest {

    private static final int REPLICAS = 3;

    private static Connection open(String mode) throws SQLException {
        Connection c = Engine.connect(Engine.HSQLDB.url(REPLICAS) + ";hsqldb.tx=" + mode);
        Engine.execute(c, "CREATE TABLE item (id INT PRIMARY KEY, code VARCHAR(10) UNIQUE, qty INT, note CLOB)",
                "CREATE TABLE loose (v INT, w VARCHAR(10))",
                "INSERT INTO item VALUES (1, 'a', 10, 'first'), (2, 'b', 20, NULL), (3, 'c', 30, NULL)",
                "INSERT INTO loose VALUES (1, 'x'), (1, 'x'), (2, 'y')");
        c.setAutoCommit(false);
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void rowsWrittenAgainLaterInTheTransaction(String mode) throws Exception {
        try (Connection c = open(mode)) {
            Engine.execute(c, "INSERT INTO item VALUES (4, 'd', 40, 'new')",
                    "UPDATE item SET qty = qty + 1 WHERE id IN (1, 4)", // a row of before and one of this transaction
                    "UPDATE item SET qty = qty + 1, note = 'twice' WHERE id = 4",
                    "INSERT INTO item VALUES (5, 'e', 50, NULL)",
                    "DELETE FROM item WHERE id = 5", // inserted, then deleted: nothing reaches the slaves
                    "UPDATE item SET id = id + 10 WHERE id IN (2, 3)", // the key moves: a delete and an insert
                    "UPDATE loose SET v = 3 WHERE v = 1 AND w = 'x' AND ROWNUM() = 1", // one of two equal rows
                    "DELETE FROM loose WHERE v = 2");
            c.commit();
            assertEquals(List.of("1 a 11", "4 d 42", "12 b 20", "13 c 30"),
                    Engine.rows(c, "SELECT id, code, qty FROM item ORDER BY id"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** One statement swaps two unique values: its updates, one by one, would collide on a slave. */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void oneStatementSwapsUniqueValues(String mode) throws Exception {
        try (Connection c = open(mode)) {
            Engine.execute(c, "UPDATE item SET code = CASE id WHEN 1 THEN 'b' ELSE 'a' END, qty = qty * 2 "
                    + "WHERE id IN (1, 2)");
            c.commit();
            assertEquals(List.of("1 b 20", "2 a 40"), Engine.rows(c, "SELECT id, code, qty FROM item WHERE id < 3"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /**
     * A routine's statements run as one CALL: the row it inserts and deletes again, and the row it inserts and then
     * updates (HSQLDB deletes it and inserts its new version), appear in one statement's part of the list.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void oneStatementInsertsAndDeletesTheSameRow(String mode) throws Exception {
        try (Connection c = open(mode)) {
            c.setAutoCommit(true);
            Engine.execute(c, "CREATE PROCEDURE churn(IN k INT) MODIFIES SQL DATA BEGIN ATOMIC "
                    + "INSERT INTO item VALUES (k, 'tmp', 0, NULL); DELETE FROM item WHERE id = k; "
                    + "INSERT INTO item VALUES (k + 1, 'kept', 1, 'n'); UPDATE item SET qty = 2 WHERE id = k + 1; "
                    + "UPDATE item SET qty = qty + 5 WHERE id = 1; END");
            c.setAutoCommit(false);
            Engine.execute(c, "CALL churn(7)");
            c.commit();
            assertEquals(List.of("1 15", "2 20", "3 30", "8 2"),
                    Engine.rows(c, "SELECT id, qty FROM item ORDER BY id"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvlocks", "mvcc"})
    void savepointsAndFailedStatementsLeaveOnlyWhatTheMasterKept(String mode) throws Exception {
        try (Connection c = open(mode)) {
            Engine.execute(c, "INSERT INTO item VALUES (4, 'd', 40, NULL)");
            Savepoint savepoint = c.setSavepoint();
            Engine.execute(c, "UPDATE item SET qty = 0 WHERE id = 4", "DELETE FROM item WHERE id = 1");
            c.rollback(savepoint); // the update of a row this transaction inserted goes: the row stays inserted
            // fails at its second row (the key is taken): its first row goes with it
            assertThrows(SQLException.class,
                    () -> Engine.execute(c, "INSERT INTO item VALUES (6, 'f', 60, NULL), (2, 'g', 70, NULL)"));
            try (PreparedStatement batch = c.prepareStatement("UPDATE item SET code = ? WHERE id = ?")) {
                for (Object[] row : new Object[][]{{"x", 4}, {"c", 1}, {"y", 2}}) { // the second takes 3's code
                    batch.setString(1, (String) row[0]);
                    batch.setInt(2, (Integer) row[1]);
                    batch.addBatch();
                }
                assertThrows(BatchUpdateException.class, batch::executeBatch);
            }
            c.commit();
            assertEquals(List.of("1 a 10", "2 b 20", "3 c 30", "4 x 40"),
                    Engine.rows(c, "SELECT id, code, qty FROM item ORDER BY id"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /**
     * A statement of many rows: its rows are matched through hash maps, not by looking through them all as for a few
     * (HsqldbRowLog's FEW_ROWS), so both ways are run.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void statementsOfManyRows(String mode) throws Exception {
        try (Connection c = open(mode)) {
            c.setAutoCommit(true);
            Engine.execute(c, "CREATE PROCEDURE churn_many() MODIFIES SQL DATA BEGIN ATOMIC "
                    + "DECLARE i INT DEFAULT 100; "
                    + "WHILE i < 140 DO INSERT INTO item VALUES (i, 'c' || i, i, NULL); SET i = i + 1; END WHILE; "
                    + "DELETE FROM item WHERE id BETWEEN 100 AND 119; "
                    + "UPDATE item SET qty = qty + 1 WHERE id >= 120; END");
            c.setAutoCommit(false);
            Engine.execute(c, "INSERT INTO item SELECT 10 + X, 'k' || X, X, NULL FROM (VALUES (1), (2), (3), (4), (5), "
                    + "(6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17), (18), (19), (20)) AS v(X)");
            Engine.execute(c, "CALL churn_many()", "UPDATE item SET qty = qty * 2 WHERE id >= 11",
                    "UPDATE item SET id = id + 1000 WHERE id BETWEEN 11 AND 30");
            c.commit();
            assertEquals(List.of("43"), Engine.rows(c, "SELECT COUNT(*) FROM item"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** A table the catalog does not know (made behind MacroDB's back) is refused, its statement alone undone. */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void aRowNoSlaveCanTakeUndoesItsStatementOnly(String mode) throws Exception {
        try (Connection c = open(mode)) {
            RowLogScenarios.unknownTableUndoesItsStatementOnly(c);
        }
    }

    /**
     * What HSQLDB's MERGE deletes is captured (with a capture trigger on the table, HSQLDB failed such a MERGE), and so
     * are the rows a foreign key's ON DELETE CASCADE deletes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"locks", "mvcc"})
    void mergeThatDeletesAndCascades(String mode) throws Exception {
        try (Connection c = open(mode)) {
            c.setAutoCommit(true);
            Engine.execute(c, "CREATE TABLE line (item INT REFERENCES item (id) ON DELETE CASCADE, n INT, "
                            + "PRIMARY KEY (item, n))",
                    "INSERT INTO line VALUES (1, 1), (1, 2), (2, 1)");
            c.setAutoCommit(false);
            Engine.execute(c, "MERGE INTO item USING (VALUES (3, 5), (2, 7), (9, 9)) AS s(id, q) ON item.id = s.id "
                    + "WHEN MATCHED AND s.q < 6 THEN DELETE WHEN MATCHED THEN UPDATE SET qty = s.q "
                    + "WHEN NOT MATCHED THEN INSERT VALUES (s.id, 'm', s.q, NULL)",
                    "DELETE FROM item WHERE id = 1");
            c.commit();
            assertEquals(List.of("2 7", "9 9"), Engine.rows(c, "SELECT id, qty FROM item ORDER BY id"));
            assertEquals(List.of("2 1"), Engine.rows(c, "SELECT item, n FROM line"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /**
     * A file database a MacroDB that captured HSQLDB with triggers left behind after a crash still holds them. Their
     * class is gone, which HSQLDB runs as a trigger that does nothing, so the database opens; but each would still
     * cost HSQLDB's trigger call on every row. They go when the cluster starts.
     */
    @org.junit.jupiter.api.Test
    void captureTriggersLeftInAFileDatabaseGo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        String file = "hsqldb:file:" + dir.resolve("shop").toAbsolutePath();
        try (Connection bare = Engine.connect("jdbc:" + file)) {
            Engine.execute(bare, "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
                    "CREATE TRIGGER PUBLIC.\"MACRODB_I_PUBLIC.T\" AFTER INSERT ON t FOR EACH ROW QUEUE 0 CALL "
                            + "\"io.macrodb.runtime.engine.hsqldb.HsqldbCaptureTrigger\"",
                    "SHUTDOWN");
        }
        try (Connection c = Engine.connect("jdbc:macrodb:" + file + ";macrodb.replicas=2")) {
            assertEquals(List.of("0"), Engine.rows(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TRIGGERS"));
            Engine.execute(c, "INSERT INTO t VALUES (1, 1), (2, 2)", "UPDATE t SET v = 3 WHERE id = 1");
            Engine.assertReplicatedThenShutDown(c);
        }
    }
}
