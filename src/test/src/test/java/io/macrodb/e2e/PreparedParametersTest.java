package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A prepared statement's parameters are the values they had at the setter, as with the engine alone (found by a
 * review, 2026-11-23). MacroDB records parameters and binds them at each execution, on the replica the transaction
 * runs on; it recorded the caller's objects, so a buffer or a {@code Timestamp} reused for each row of a batch stored
 * the last row's value in every row, a {@code Calendar} changed after the setter moved the time, and streams were read
 * at the first execution only: a second execution, or a batch run again element by element after one element
 * failed, stored empty LOBs.
 */
class PreparedParametersTest {

    private static final String TABLE = "CREATE TABLE t (id INT PRIMARY KEY, b VARBINARY(10), ts TIMESTAMP, "
            + "c CLOB, bl BLOB)";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void mutableValuesAreTakenAtTheSetter(Engine engine) throws Exception {
        assertAsTheEngineAlone(engine, PreparedParametersTest::mutableValues);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void streamsAreReadAtTheSetterAndGiveEveryExecutionTheirValue(Engine engine) throws Exception {
        assertAsTheEngineAlone(engine, PreparedParametersTest::streams);
    }

    /** HSQLDB's LOB objects can be written after the setter (H2's cannot): one reused for each row of a batch. */
    @org.junit.jupiter.api.Test
    void aLobObjectIsTakenAtTheSetterToo() throws Exception {
        assertAsTheEngineAlone(Engine.HSQLDB, c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, c, bl) VALUES (?, ?, ?)")) {
                java.sql.Clob text = c.createClob();
                java.sql.Blob bytes = c.createBlob();
                for (int i = 0; i < 3; i++) {
                    text.setString(1, "row" + i);
                    bytes.setBytes(1, new byte[] {(byte) i});
                    insert.setInt(1, i);
                    insert.setClob(2, text);
                    insert.setBlob(3, bytes);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        });
    }

    private interface Scenario {
        void run(Connection connection) throws Exception;
    }

    /** Runs {@code scenario} on the engine alone and through MacroDB: the same rows, and identical replicas. */
    private static void assertAsTheEngineAlone(Engine engine, Scenario scenario) throws Exception {
        List<String> alone;
        try (Connection plain = DriverManager.getConnection("jdbc:" + engine.name + ":mem:parameters-alone-"
                + System.nanoTime())) {
            Engine.execute(plain, TABLE);
            scenario.run(plain);
            alone = rows(plain);
        }
        try (Connection c = Engine.connect(engine.url(2))) {
            Engine.execute(c, TABLE);
            scenario.run(c);
            assertEquals(alone, rows(c));
            Engine.assertIdenticalAndNoneFailed(c.unwrap(MacroCluster.class));
        }
    }

    private static List<String> rows(Connection c) throws Exception {
        List<String> rows = new ArrayList<>();
        try (var query = c.createStatement(); ResultSet r = query.executeQuery("SELECT * FROM t ORDER BY id")) {
            while (r.next()) {
                rows.add(r.getInt(1) + " " + Arrays.toString(r.getBytes(2)) + " " + r.getTimestamp(3) + " "
                        + r.getString(4) + " " + Arrays.toString(r.getBytes(5)));
            }
        }
        return rows;
    }

    private static void mutableValues(Connection c) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, b, ts) VALUES (?, ?, ?)")) {
            byte[] buffer = new byte[2];
            Timestamp time = Timestamp.valueOf("2020-01-01 00:00:00");
            for (int i = 0; i < 3; i++) { // one buffer and one Timestamp for every row, as a loader might
                buffer[0] = (byte) i;
                buffer[1] = (byte) (2 * i);
                time.setTime(Timestamp.valueOf("2020-01-0" + (i + 1) + " 00:00:00").getTime());
                insert.setInt(1, i);
                insert.setBytes(2, buffer);
                insert.setTimestamp(3, time);
                insert.addBatch();
            }
            insert.executeBatch();
            Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
            insert.setInt(1, 3);
            insert.setBytes(2, buffer);
            insert.setTimestamp(3, Timestamp.valueOf("2020-01-01 12:00:00"), utc);
            buffer[0] = 9; // after the setters: the engine alone took the values already
            utc.setTimeZone(TimeZone.getTimeZone("Asia/Tokyo"));
            insert.executeUpdate();
        }
    }

    private static void streams(Connection c) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (id, c, bl) VALUES (?, ?, ?)")) {
            insert.setCharacterStream(2, new StringReader("row"));
            insert.setBinaryStream(3, new ByteArrayInputStream(new byte[] {1, 2}));
            insert.setInt(1, 1);
            insert.executeUpdate();
            insert.setInt(1, 2); // the streams' values are kept, as with the engine alone
            insert.executeUpdate();

            c.setAutoCommit(false); // a batch whose third element fails: the others run again one by one
            for (int id : new int[] {3, 4, 1, 5}) {
                insert.setInt(1, id);
                insert.setCharacterStream(2, new StringReader("row" + id));
                insert.setBinaryStream(3, new ByteArrayInputStream(new byte[] {(byte) id}));
                insert.addBatch();
            }
            assertThrows(BatchUpdateException.class, insert::executeBatch);
            c.commit();
            c.setAutoCommit(true);
        }
    }
}
