package io.macrodb.runtime.cluster;

import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.CaptureTriggers;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes a new, empty slave a copy of a replica that stands still (nothing commits on it while it is copied) before
 * the new slave's applier starts: the schema (from the engine's own script, less the application's triggers: see
 * {@link UserTriggers}), every table's rows, and the sequence and identity counters. At start the source is the
 * master, which has data when it is a file database; a new in-memory master's script holds only what every new
 * database has. A rebuilt slave is copied from a paused slave, or from a master whose update transactions are held
 * ({@link SlaveRebuild}). The tables copied are the source's own, which may be older than the catalog's: the DDL
 * after the copy's version is still in the new slave's queue.
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

    void seed(Connection source, Connection slave) throws SQLException {
        SqlQueries.execute(slave, engine.referentialIntegrity(false));
        slave.commit();
        // Even with no table nor sequence: a schema, a routine, a domain or a linked table alone must be copied too (a
        // later CREATE TABLE in that schema failed the new slave, a query of that routine failed on it alone).
        Collection<CapturedTable> tables = catalog.read(source).values();
        for (String sql : engine.snapshot(source)) {
            if (!CaptureTriggers.isTriggerDefinition(sql)) { // the application's triggers stay on the master
                // Without the script's closing semicolon: H2 keeps a FORCE VIEW's text as written, with it.
                executeUnlessPresent(slave, SqlText.statement(sql));
            }
        }
        slave.commit();
        engine.afterSchemaCopied(slave);
        Map<String, CapturedTable> byKey = new HashMap<>();
        for (CapturedTable table : tables) {
            copyRows(source, slave, table);
            byKey.put(table.name().key(), table);
        }
        for (Map.Entry<String, Long> sequence : engine.sequenceState(source).entrySet()) {
            SqlQueries.execute(slave, engine.restartSequence(sequence.getKey(), sequence.getValue()));
        }
        for (Map.Entry<String, Long> identity : engine.identityState(source).entrySet()) {
            SqlQueries.execute(slave, engine.restartIdentity(byKey.get(identity.getKey()), identity.getValue()));
        }
        slave.commit();
        source.commit();
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

    private void copyRows(Connection source, Connection slave, CapturedTable table) throws SQLException {
        if (engine.copyStoredRows(source, slave, table, COMMIT_EVERY)) {
            return;
        }
        int[] inserted = table.insertedColumns();
        try (Statement select = source.createStatement();
             ResultSet rows = select.executeQuery("SELECT * FROM " + table.name().quoted());
             PreparedStatement insert = slave.prepareStatement(table.insertSql())) {
            int pending = 0;
            while (rows.next()) {
                // not getObject: a java.sql.Time drops a TIME(9)'s nanoseconds, an HSQLDB BIT(3) reads as a Boolean
                // no BIT(3) accepts (see Engine#copiedRow)
                Object[] row = engine.copiedRow(rows, table);
                for (int p = 0; p < inserted.length; p++) {
                    insert.setObject(p + 1, row[inserted[p]]);
                }
                insert.addBatch();
                if (++pending == COMMIT_EVERY) {
                    insert.executeBatch();
                    slave.commit();
                    pending = 0;
                }
            }
            if (pending > 0) { // HSQLDB refuses an empty batch
                insert.executeBatch();
            }
            slave.commit();
        }
    }
}
