package io.macrodb.runtime.cluster;

import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.ValueConverter;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.SqlQueries;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shapes of the master's user tables, keyed as the capture triggers name them, and the installer of those
 * triggers. Read again from the master after every DDL statement (under the commit lock, so no write set is sealed
 * against a half-changed catalog); readers on the capture path see one immutable map at a time.
 */
public final class TableCatalog {

    private final Engine engine;
    private volatile Map<String, CapturedTable> tables = Map.of();
    private volatile boolean hasIdentityColumns;

    public TableCatalog(Engine engine) {
        this.engine = engine;
    }

    public CapturedTable get(String tableKey) {
        return tables.get(tableKey);
    }

    public List<CapturedTable> tables() {
        return List.copyOf(tables.values());
    }

    /** Whether any table has an identity column (whose counter an insert may move without inserting a row). */
    public boolean hasIdentityColumns() {
        return hasIdentityColumns;
    }

    /** Re-reads every user table of {@code master} and makes sure each has its capture trigger(s). */
    public void refresh(Connection master) throws SQLException {
        Map<String, CapturedTable> read = read(master);
        installTriggers(master);
        tables = Map.copyOf(read);
        hasIdentityColumns = read.values().stream().anyMatch(t -> t.identityColumn() >= 0);
    }

    /**
     * Installs the capture trigger(s) on every user table of {@code replica} that lacks them. The replica's own
     * tables, not the catalog's: a slave replaying an old DDL statement does not have the tables of later ones yet.
     */
    public void installTriggers(Connection replica) throws SQLException {
        Set<String> captured = new HashSet<>();
        for (String name : SqlQueries.strings(replica, "SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS")) {
            String key = engine.tableKeyOfTrigger(name);
            if (key != null) {
                captured.add(key);
            }
        }
        for (CapturedTable.Name table : userTables(replica)) {
            if (!captured.contains(table.key())) {
                for (String sql : engine.installCaptureTriggers(table)) {
                    SqlQueries.execute(replica, sql);
                }
            }
        }
        replica.commit();
    }

    private List<CapturedTable.Name> userTables(Connection connection) throws SQLException {
        List<CapturedTable.Name> names = new ArrayList<>();
        try (ResultSet rows = connection.getMetaData().getTables(null, null, "%", null)) {
            while (rows.next()) {
                String type = rows.getString("TABLE_TYPE");
                String schema = rows.getString("TABLE_SCHEM");
                if (("TABLE".equals(type) || "BASE TABLE".equals(type)) && !engine.isSystemSchema(schema)) {
                    names.add(new CapturedTable.Name(schema, rows.getString("TABLE_NAME")));
                }
            }
        }
        return names;
    }

    /** The shapes of {@code connection}'s own user tables, keyed as the triggers name them; changes nothing here. */
    Map<String, CapturedTable> read(Connection connection) throws SQLException {
        Map<String, Boolean> identityAlways = identityColumns(connection);
        DatabaseMetaData meta = connection.getMetaData();
        Map<String, CapturedTable> read = new HashMap<>();
        for (CapturedTable.Name name : userTables(connection)) {
            read.put(name.key(), shape(meta, name, identityAlways));
        }
        return read;
    }

    private CapturedTable shape(DatabaseMetaData meta, CapturedTable.Name name, Map<String, Boolean> identityAlways)
            throws SQLException {
        List<CapturedTable.Column> columns = new ArrayList<>();
        int identity = -1;
        boolean always = false;
        try (ResultSet rows = meta.getColumns(null, name.schema(), name.table(), "%")) {
            while (rows.next()) {
                String column = rows.getString("COLUMN_NAME");
                Boolean generatedAlways = identityAlways.get(name.key() + "." + column);
                if (generatedAlways != null) {
                    identity = columns.size();
                    always = generatedAlways;
                }
                columns.add(new CapturedTable.Column(column, rows.getInt("DATA_TYPE"), rows.getString("TYPE_NAME")));
            }
        }
        Map<Integer, String> keyBySeq = new java.util.TreeMap<>();
        try (ResultSet rows = meta.getPrimaryKeys(null, name.schema(), name.table())) {
            while (rows.next()) {
                keyBySeq.put(rows.getInt("KEY_SEQ"), rows.getString("COLUMN_NAME"));
            }
        }
        int[] key = new int[keyBySeq.size()];
        int k = 0;
        for (String column : keyBySeq.values()) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equals(column)) {
                    key[k++] = i;
                }
            }
        }
        ValueConverter[] converters = new ValueConverter[columns.size()];
        for (int i = 0; i < converters.length; i++) {
            converters[i] = engine.converterFor(columns.get(i));
        }
        return new CapturedTable(name, columns, key, identity, always, converters, engine.limitOneRow());
    }

    /** Identity columns, keyed schema.table.column, to whether they are GENERATED ALWAYS (standard view). */
    private static Map<String, Boolean> identityColumns(Connection connection) throws SQLException {
        Map<String, Boolean> identity = new HashMap<>();
        try (var statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, "
                     + "IDENTITY_GENERATION FROM INFORMATION_SCHEMA.COLUMNS WHERE IS_IDENTITY = 'YES'")) {
            while (rows.next()) {
                identity.put(rows.getString(1) + "." + rows.getString(2) + "." + rows.getString(3),
                        "ALWAYS".equalsIgnoreCase(rows.getString(4)));
            }
        }
        return identity;
    }
}
