package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A statement that runs on the master while commits are held (a schema change, {@code verify()}'s read) and waits
 * for the locks of an open update transaction, whose commit then waits for the commits held: on HSQLDB, which waits
 * for a lock as long as it takes, both hung, and every commit behind them. Now a schema change's DDL, which has not
 * begun while it waits, lets that commit go first, as HSQLDB alone does; {@code verify()}'s read makes the commit give
 * way, as an engine picks a deadlock's victim: rolled back with the retryable 40001, after which the read goes on and
 * the transaction, run again, commits. Nothing diverges.
 */
class CommitsHeldDeadlockTest {

    private static final long HUNG_SECONDS = 20;

    private final HangWatch hangs = new HangWatch("deadlock-test");

    @AfterEach
    void closeConnections() throws InterruptedException {
        hangs.close();
    }

    /** HSQLDB's DDL waits for the transactions that locked its table; in MVCC mode, for every open transaction. */
    @ParameterizedTest(name = "hsqldb.tx={0}, the writer wrote {1}")
    @CsvSource({"locks, t", "mvlocks, t", "mvcc, t", "mvcc, u"})
    void schemaChangeWaitingForAnOpenWriter(String mode, String written) throws Exception {
        String url = "jdbc:macrodb:hsqldb:mem:deadlock-ddl-" + mode + written + ";hsqldb.tx=" + mode
                + ";macrodb.replicas=3";
        Connection setup = hangs.open(url);
        Connection writer = hangs.open(url);
        Connection ddl = hangs.open(url);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES 1",
                "CREATE TABLE u (id INT PRIMARY KEY)");
        writer.setAutoCommit(false);
        Engine.execute(writer, "INSERT INTO " + written + " VALUES 2");

        Future<?> alter = hangs.start(() -> {
            Engine.execute(ddl, "ALTER TABLE t ADD COLUMN note VARCHAR(10) DEFAULT 'new'");
            return null;
        });
        awaitBlocked(alter);
        // The writer's next statement is not held back while the change waits for it (it would wait out
        // macrodb.readWaitTimeoutMs, 30 s, longer than this test calls a hang): the change has not run yet.
        hangs.within(HUNG_SECONDS, () -> {
            Engine.execute(writer, "INSERT INTO " + written + " VALUES 3");
            return null;
        });
        hangs.within(HUNG_SECONDS, () -> { // goes ahead of the change, which has not begun
            writer.commit();
            return null;
        });
        HangWatch.within(alter, HUNG_SECONDS);

        assertEquals(List.of("1 new"), Engine.rows(setup, "SELECT id, note FROM t WHERE id = 1"));
        assertEquals(List.of("2", "3"), Engine.rows(setup, "SELECT id FROM " + written + " WHERE id > 1 ORDER BY id"));
        Engine.assertIdenticalAndNoneFailed(setup.unwrap(MacroCluster.class));
    }

    /**
     * The commit let through comes first in the slaves' order too: replayed after the schema change, the rows of a
     * table it empties would be left on every slave.
     */
    @ParameterizedTest(name = "hsqldb.tx={0}") // (in MVCC mode HSQLDB fails TRUNCATE beside another's rows)
    @CsvSource({"locks", "mvlocks"})
    void commitGoingAheadOfASchemaChangeComesFirstOnSlaves(String mode) throws Exception {
        String url = "jdbc:macrodb:hsqldb:mem:deadlock-order-" + mode + ";hsqldb.tx=" + mode + ";macrodb.replicas=3";
        Connection setup = hangs.open(url);
        Connection writer = hangs.open(url);
        Connection ddl = hangs.open(url);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES 1");
        writer.setAutoCommit(false);
        Engine.execute(writer, "INSERT INTO t VALUES 2");

        Future<?> truncate = hangs.start(() -> {
            Engine.execute(ddl, "TRUNCATE TABLE t");
            return null;
        });
        awaitBlocked(truncate);
        hangs.within(HUNG_SECONDS, () -> {
            writer.commit();
            return null;
        });
        HangWatch.within(truncate, HUNG_SECONDS);

        assertEquals(List.of(), Engine.rows(setup, "SELECT id FROM t"));
        Engine.assertIdenticalAndNoneFailed(setup.unwrap(MacroCluster.class));
    }

    /**
     * The schema change waits for a writer that waits in the engine for a third transaction: that one's commit goes
     * first too, then the writer's, then the change, as with HSQLDB alone. MacroDB asked only whether the change waited
     * for the committer itself, and the third transaction's commit hung, every commit with it (found by a review).
     */
    @ParameterizedTest(name = "hsqldb.tx={0}")
    @CsvSource({"locks", "mvlocks"})
    void schemaChangeWaitingForAWriterThatWaitsForAnother(String mode) throws Exception {
        String url = "jdbc:macrodb:hsqldb:mem:deadlock-chain-" + mode + ";hsqldb.tx=" + mode + ";macrodb.replicas=3";
        Connection setup = hangs.open(url);
        Connection first = hangs.open(url);
        Connection second = hangs.open(url);
        Connection ddl = hangs.open(url);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY)", "CREATE TABLE u (id INT PRIMARY KEY)");
        first.setAutoCommit(false);
        second.setAutoCommit(false);
        Engine.execute(second, "INSERT INTO u VALUES 1");
        Engine.execute(first, "INSERT INTO t VALUES 1");
        Future<?> firstWaits = hangs.start(() -> { // waits in the engine for the second's lock on u
            Engine.execute(first, "INSERT INTO u VALUES 2");
            first.commit();
            return null;
        });
        awaitBlocked(firstWaits);
        Future<?> alter = hangs.start(() -> { // waits for the first's lock on t, commits held
            Engine.execute(ddl, "ALTER TABLE t ADD COLUMN note VARCHAR(10) DEFAULT 'new'");
            return null;
        });
        awaitBlocked(alter);
        hangs.within(HUNG_SECONDS, () -> {
            second.commit();
            return null;
        });
        HangWatch.within(firstWaits, HUNG_SECONDS);
        HangWatch.within(alter, HUNG_SECONDS);
        assertEquals(List.of("1 new"), Engine.rows(setup, "SELECT id, note FROM t"));
        assertEquals(List.of("1", "2"), Engine.rows(setup, "SELECT id FROM u ORDER BY id"));
        Engine.assertIdenticalAndNoneFailed(setup.unwrap(MacroCluster.class));
    }

    /** HSQLDB's LOCKS mode (its default): a read waits for a writer's lock (MVLOCKS and MVCC read past it). */
    @Test
    void verifyWaitingForAnOpenWriter() throws Exception {
        String url = "jdbc:macrodb:hsqldb:mem:deadlock-verify;macrodb.replicas=3";
        Connection setup = hangs.open(url);
        Connection writer = hangs.open(url);
        MacroCluster cluster = setup.unwrap(MacroCluster.class);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES 1");
        writer.setAutoCommit(false);
        Engine.execute(writer, "INSERT INTO t VALUES 2");

        Future<?> verify = hangs.start(() -> {
            Engine.assertIdentical(cluster);
            return null;
        });
        awaitBlocked(verify);
        SQLException victim = assertThrows(SQLTransactionRollbackException.class,
                () -> hangs.within(HUNG_SECONDS, () -> {
                    writer.commit();
                    return null;
                }));
        assertEquals(MacroSqlState.SERIALIZATION_FAILURE, victim.getSQLState());
        Engine.execute(writer, "INSERT INTO t VALUES 2");
        writer.commit();
        HangWatch.within(verify, HUNG_SECONDS);
        assertEquals(List.of("1", "2"), Engine.rows(setup, "SELECT id FROM t ORDER BY id"));
        Engine.assertIdenticalAndNoneFailed(cluster);
    }

    /** Waits until {@code statement} has been running a while without ending: waiting for the writer's locks. */
    private static void awaitBlocked(Future<?> statement) throws Exception {
        try {
            statement.get(500, TimeUnit.MILLISECONDS);
            fail("the statement did not wait for the open writer: the test shows nothing");
        } catch (TimeoutException expected) {
            // waiting, as it should
        }
    }
}
