package io.macrodb.runtime.cluster;

import io.macrodb.api.VerificationReport.TableChecksum;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.Engine;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Check-sums one replica's schema definitions for {@link Verifier}, one entry per kind of object: the tables'
 * columns, their indexes and keys, CHECK constraints, views, routines and sequences. Two replicas can hold the same
 * rows and still answer the same query differently: a view defined otherwise, a case-insensitive column on one of
 * them, a routine's body. Each entry is the count and the sum of a hash of each definition, so the order the engine
 * lists them in does not matter.
 *
 * <p>Names the engine generates are left out (a primary key's index, a foreign key's constraint, HSQLDB's routine
 * {@code SPECIFIC} name): a slave copied from a script gets names of its own, measured on both engines. The
 * application's triggers live on the master only ({@link UserTriggers}) and are not compared.
 */
final class SchemaChecksums {

    static final String COLUMNS = "(column definitions)";
    static final String INDEXES = "(indexes and keys)";
    static final String CHECKS = "(check constraints)";
    static final String VIEWS = "(views)";
    static final String ROUTINES = "(routines)";
    static final String SEQUENCES = "(sequence definitions)";

    /** One part of a qualified name, quoted or not. */
    private static final String NAME_PART = "(\"[^\"]*\"|[^\\s\"\u0001().]+)";
    /**
     * HSQLDB lists a column's NOT NULL as a CHECK constraint ({@code PUBLIC.T.ID IS NOT NULL}), but not for a primary
     * key column declared without it, whose copy (the script says {@code NOT NULL PRIMARY KEY}) has one more: a
     * column's nullability is compared with the columns instead.
     */
    private static final Pattern NOT_NULL_ONLY = Pattern.compile(
            "\u0001" + NAME_PART + "(\\." + NAME_PART + ")* IS NOT NULL\u0001$", Pattern.CASE_INSENSITIVE);

    private final Engine engine;

    SchemaChecksums(Engine engine) {
        this.engine = engine;
    }

    Map<String, TableChecksum> of(Connection connection, List<CapturedTable> tables) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        Map<String, TableChecksum> sums = new TreeMap<>();
        sums.put(COLUMNS, sum(columns(meta, tables)));
        sums.put(INDEXES, sum(indexesAndKeys(meta, tables)));
        List<String> checks = query(connection, "SELECT tc.TABLE_SCHEMA, tc.TABLE_NAME, cc.CHECK_CLAUSE "
                + "FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.CHECK_CONSTRAINTS cc "
                + "ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME");
        checks.removeIf(check -> NOT_NULL_ONLY.matcher(check).find());
        sums.put(CHECKS, sum(checks));
        sums.put(VIEWS, sum(query(connection,
                "SELECT TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION FROM INFORMATION_SCHEMA.VIEWS")));
        sums.put(ROUTINES, sum(routines(connection)));
        sums.put(SEQUENCES, sum(query(connection, "SELECT SEQUENCE_SCHEMA, SEQUENCE_NAME, DATA_TYPE, INCREMENT, "
                + "MINIMUM_VALUE, MAXIMUM_VALUE, CYCLE_OPTION FROM INFORMATION_SCHEMA.SEQUENCES")));
        return sums;
    }

    private static List<String> columns(DatabaseMetaData meta, List<CapturedTable> tables) throws SQLException {
        List<String> definitions = new ArrayList<>();
        for (CapturedTable table : tables) {
            try (ResultSet rows = meta.getColumns(null, table.name().schema(), table.name().table(), "%")) {
                while (rows.next()) {
                    definitions.add(table.name().key() + "." + rows.getString("COLUMN_NAME") + " "
                            + rows.getString("TYPE_NAME") + "(" + rows.getString("COLUMN_SIZE") + ","
                            + rows.getString("DECIMAL_DIGITS") + ") nullable " + rows.getString("NULLABLE")
                            + " identity " + rows.getString("IS_AUTOINCREMENT") + " computed "
                            + rows.getString("IS_GENERATEDCOLUMN"));
                }
            }
        }
        return definitions;
    }

    /**
     * Per table: its primary key's columns; each index as its uniqueness and ordered columns with their direction;
     * each foreign key as its columns, the table and columns it references, and its rules. The metadata lists an
     * index or key one column per row, grouped here by its (left out) name.
     */
    private static List<String> indexesAndKeys(DatabaseMetaData meta, List<CapturedTable> tables)
            throws SQLException {
        List<String> definitions = new ArrayList<>();
        for (CapturedTable table : tables) {
            String schema = table.name().schema();
            String name = table.name().table();
            Map<String, StringBuilder> byName = new TreeMap<>();
            try (ResultSet rows = meta.getPrimaryKeys(null, schema, name)) {
                while (rows.next()) {
                    byName.computeIfAbsent("pk", k -> new StringBuilder(table.name().key() + " primary key"))
                            .append(' ').append(rows.getShort("KEY_SEQ")).append(rows.getString("COLUMN_NAME"));
                }
            }
            try (ResultSet rows = meta.getIndexInfo(null, schema, name, false, false)) {
                while (rows.next()) {
                    String column = rows.getString("COLUMN_NAME");
                    if (column == null) { // a statistic row, not an index column
                        continue;
                    }
                    String kind = table.name().key() + (rows.getBoolean("NON_UNIQUE") ? " index" : " unique index");
                    byName.computeIfAbsent("index " + rows.getString("INDEX_NAME"), k -> new StringBuilder(kind))
                            .append(' ').append(rows.getShort("ORDINAL_POSITION")).append(column)
                            .append(' ').append(rows.getString("ASC_OR_DESC"));
                }
            }
            try (ResultSet rows = meta.getImportedKeys(null, schema, name)) {
                while (rows.next()) {
                    String kind = table.name().key() + " foreign key on update " + rows.getShort("UPDATE_RULE")
                            + " on delete " + rows.getShort("DELETE_RULE");
                    byName.computeIfAbsent("foreign key " + rows.getString("FK_NAME"), k -> new StringBuilder(kind))
                            .append(' ').append(rows.getShort("KEY_SEQ")).append(rows.getString("FKCOLUMN_NAME"))
                            .append(" -> ").append(rows.getString("PKTABLE_SCHEM")).append('.')
                            .append(rows.getString("PKTABLE_NAME")).append('.').append(rows.getString("PKCOLUMN_NAME"));
                }
            }
            byName.values().forEach(definition -> definitions.add(definition.toString()));
        }
        return definitions;
    }

    /** HSQLDB writes each routine's generated {@code SPECIFIC} name into its definition: taken out. */
    private List<String> routines(Connection connection) throws SQLException {
        List<String> definitions = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_TYPE, "
                     + "SPECIFIC_NAME, ROUTINE_DEFINITION, EXTERNAL_NAME FROM INFORMATION_SCHEMA.ROUTINES")) {
            while (rows.next()) {
                if (engine.isSystemSchema(rows.getString(1))) {
                    continue;
                }
                String body = rows.getString(5);
                String specific = rows.getString(4);
                if (body != null && specific != null) {
                    body = body.replace(specific, "");
                }
                definitions.add(rows.getString(1) + "." + rows.getString(2) + " " + rows.getString(3) + " " + body
                        + " " + rows.getString(6));
            }
        }
        return definitions;
    }

    /** Every row of {@code sql} whose first column is not a system schema, its columns joined. */
    private List<String> query(Connection connection, String sql) throws SQLException {
        List<String> definitions = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                if (engine.isSystemSchema(rows.getString(1))) {
                    continue;
                }
                StringBuilder definition = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    definition.append(rows.getString(i)).append('\u0001');
                }
                definitions.add(definition.toString());
            }
        }
        return definitions;
    }

    private static TableChecksum sum(List<String> definitions) {
        long sum = 0;
        for (String definition : definitions) {
            sum += Verifier.mix(Verifier.hashOf(definition));
        }
        return new TableChecksum(definitions.size(), sum);
    }
}
