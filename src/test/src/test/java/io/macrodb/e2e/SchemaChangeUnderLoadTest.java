package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Tables created while a writer keeps committing (found by a review, 2026-11-23). A new table has no capture trigger
 * until the catalog's refresh after its DDL: a row written there in between reached no slave (the replicas
 * diverged), so update statements wait while a schema change runs. And the refresh's CREATE TRIGGER is DDL too, which
 * on HSQLDB's MVCC mode waits for every open transaction: a commit then waiting for the commits held hung them both.
 */
class SchemaChangeUnderLoadTest {

    private final HangWatch hangs = new HangWatch("schema-change-test");

    @AfterEach
    void closeConnections() throws InterruptedException {
        hangs.close();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWriterRacingIntoTablesAsTheyAreCreated(Engine engine) throws Exception {
        String url = engine.url(2);
        Connection setup = hangs.open(url);
        Connection writer = hangs.open(url);
        Connection ddl = hangs.open(url);
        writer.setAutoCommit(false);
        Future<?> writing = hangs.start(() -> {
            int done = 0;
            while (done < 30) {
                try {
                    Engine.execute(writer, "INSERT INTO x" + done + " VALUES 1");
                    writer.commit();
                    done++;
                } catch (SQLException notThereYet) {
                    writer.rollback();
                }
            }
            return null;
        });
        for (int i = 0; i < 30; i++) {
            Engine.execute(ddl, "CREATE TABLE x" + i + " (id INT PRIMARY KEY)");
            Thread.sleep(5);
        }
        HangWatch.within(writing, 30);
        Engine.assertIdenticalAndNoneFailed(setup.unwrap(MacroCluster.class));
    }

    @Test
    void tablesCreatedWhileAWriterKeepsCommittingOnHsqldbMvcc() throws Exception {
        String url = "jdbc:macrodb:hsqldb:mem:schema-change-mvcc;hsqldb.tx=mvcc;macrodb.replicas=2";
        Connection setup = hangs.open(url);
        Connection writer = hangs.open(url);
        Connection ddl = hangs.open(url);
        Engine.execute(setup, "CREATE TABLE t (id INT PRIMARY KEY)");
        writer.setAutoCommit(false);
        AtomicBoolean stop = new AtomicBoolean();
        Future<?> writing = hangs.start(() -> {
            int id = 0;
            while (!stop.get()) {
                try {
                    Engine.execute(writer, "INSERT INTO t VALUES " + (++id));
                    writer.commit();
                } catch (SQLException victim) { // the DDL waited for it: given way, run again
                    assertEquals(MacroSqlState.SERIALIZATION_FAILURE, victim.getSQLState(), victim::getMessage);
                    writer.rollback();
                }
            }
            return null;
        });
        Future<?> creating = hangs.start(() -> {
            for (int i = 0; i < 50; i++) {
                Engine.execute(ddl, "CREATE TABLE x" + i + " (id INT PRIMARY KEY)");
            }
            return null;
        });
        try {
            HangWatch.within(creating, 30);
        } finally {
            stop.set(true);
        }
        HangWatch.within(writing, 10);
        Engine.assertIdenticalAndNoneFailed(setup.unwrap(MacroCluster.class));
    }
}
