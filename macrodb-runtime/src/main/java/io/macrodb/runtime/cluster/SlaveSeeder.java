package io.macrodb.runtime.cluster;

import io.macrodb.runtime.capture.CaptureScope;
import io.macrodb.runtime.capture.CaptureSink;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * Makes a new, empty slave a copy of the master before its applier starts: the schema (from the engine's own
 * script), every table's rows, and the sequence and identity counters. Needed when the master is a file database
 * that already holds data; for a new in-memory master it copies nothing.
 *
 * <p>Every slave runs with referential integrity off, for good: the master has already checked each foreign key and
 * run each cascade, and the write set carries every row a cascade touched. A slave that cascaded again would apply
 * those rows twice.
 */
final class SlaveSeeder {

    private static final int COMMIT_EVERY = 10_000;

    private final Engine engine;
    private final TableCatalog catalog;

    SlaveSeeder(Engine engine, TableCatalog catalog) {
        this.engine = engine;
        this.catalog = catalog;
    }

    void seed(Connection master, Connection slave) throws SQLException {
        SqlQueries.execute(slave, engine.referentialIntegrity(false));
        slave.commit();
        if (catalog.tables().isEmpty() && engine.sequenceState(master).isEmpty()) {
            return;
        }
        CaptureSink previous = CaptureScope.open(CaptureSink.IGNORE);
        try {
            for (String sql : engine.snapshot(master)) {
                executeUnlessPresent(slave, sql);
            }
            slave.commit();
            for (CapturedTable table : catalog.tables()) {
                copyRows(master, slave, table);
            }
            for (Map.Entry<String, Long> sequence : engine.sequenceState(master).entrySet()) {
                SqlQueries.execute(slave, engine.restartSequence(sequence.getKey(), sequence.getValue()));
            }
            for (Map.Entry<String, Long> identity : engine.identityState(master).entrySet()) {
                SqlQueries.execute(slave, engine.restartIdentity(catalog.get(identity.getKey()), identity.getValue()));
            }
            catalog.installTriggers(slave);
            slave.commit();
            master.commit();
        } finally {
            CaptureScope.close(previous);
        }
    }

    /** A fresh database already has some objects a script recreates (the admin user, the PUBLIC schema). */
    private static void executeUnlessPresent(Connection slave, String sql) throws SQLException {
        try {
            SqlQueries.execute(slave, sql);
        } catch (SQLException e) {
            String upper = sql.trim().toUpperCase(java.util.Locale.ROOT);
            boolean preexisting = upper.startsWith("CREATE USER") || upper.startsWith("CREATE SCHEMA")
                    || upper.startsWith("SET ") || upper.startsWith("GRANT") || upper.startsWith("ALTER USER");
            if (!preexisting) {
                throw e;
            }
        }
    }

    private static void copyRows(Connection master, Connection slave, CapturedTable table) throws SQLException {
        int columns = table.columns().size();
        try (Statement select = master.createStatement();
             ResultSet rows = select.executeQuery("SELECT * FROM " + table.name().quoted());
             PreparedStatement insert = slave.prepareStatement(table.insertSql())) {
            int pending = 0;
            while (rows.next()) {
                for (int i = 1; i <= columns; i++) {
                    insert.setObject(i, rows.getObject(i));
                }
                insert.addBatch();
                if (++pending == COMMIT_EVERY) {
                    insert.executeBatch();
                    slave.commit();
                    pending = 0;
                }
            }
            insert.executeBatch();
            slave.commit();
        }
    }
}
