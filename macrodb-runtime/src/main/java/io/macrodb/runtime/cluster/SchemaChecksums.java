package io.macrodb.runtime.cluster;

import io.macrodb.api.VerificationReport.TableChecksum;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.sql.SqlText;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Check-sums one replica's schema definitions for {@link Verifier}, one entry per kind: the tables' columns, their
 * keys and constraints, CHECK constraints, views, routines and sequences. Two replicas can hold the same rows and
 * still answer the same query differently (a view or a routine defined otherwise, a case-insensitive column on one
 * of them) or accept different writes (a key, a CHECK). Each entry is the count and the sum of a hash of each
 * definition, so the order the engine lists them in does not matter.
 *
 * <p>A slave copied from a script (after a failure, or from a file master that holds data) must not be taken for a
 * different one, and {@code verify()} would fail it again at every call. So what a copy is given differently for the
 * same definition is left out, each measured on the engines:
 * <ul>
 *   <li>names the engine generates (a key's constraint; in a routine's text, {@link Engine#comparableRoutine});</li>
 *   <li>indexes: H2's script creates the application's indexes before the constraints, which then use them instead
 *       of indexes of their own, so a copy has fewer. Indexes change no answer; keys and constraints are compared;</li>
 *   <li>blanks outside quotes and a trailing semicolon in a definition's text (H2 keeps the script's {@code ;} in a
 *       view it compiled again, HSQLDB drops a blank from a routine's body);</li>
 *   <li>a CHECK that only says a column is NOT NULL ({@link Engine#isNullabilityCheck}: HSQLDB's form of a column's
 *       nullability, of which a copied primary key has one more): nullability is compared with the columns.</li>
 * </ul>
 * The application's triggers live on the master only ({@link UserTriggers}) and are not compared.
 */
final class SchemaChecksums {

    static final String COLUMNS = "(column definitions)";
    static final String KEYS = "(keys and constraints)";
    static final String CHECKS = "(check constraints)";
    static final String VIEWS = "(views)";
    static final String ROUTINES = "(routines)";
    static final String SEQUENCES = "(sequence definitions)";

    private final Engine engine;

    SchemaChecksums(Engine engine) {
        this.engine = engine;
    }

    Map<String, TableChecksum> of(Connection connection, List<CapturedTable> tables) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        Map<String, TableChecksum> sums = new TreeMap<>();
        sums.put(COLUMNS, sum(columns(meta, tables)));
        sums.put(KEYS, sum(keysAndConstraints(connection, meta, tables)));
        List<String> checks = new ArrayList<>();
        for (String[] check : rows(connection, "SELECT tc.TABLE_SCHEMA, tc.TABLE_NAME, cc.CHECK_CLAUSE "
                + "FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.CHECK_CONSTRAINTS cc "
                + "ON tc.CONSTRAINT_SCHEMA = cc.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = cc.CONSTRAINT_NAME")) {
            if (check[2] == null || !engine.isNullabilityCheck(check[2])) {
                checks.add(check[0] + "." + check[1] + " " + normalized(check[2]));
            }
        }
        sums.put(CHECKS, sum(checks));
        List<String> views = new ArrayList<>();
        for (String[] view : rows(connection,
                "SELECT TABLE_SCHEMA, TABLE_NAME, VIEW_DEFINITION FROM INFORMATION_SCHEMA.VIEWS")) {
            views.add(view[0] + "." + view[1] + " " + normalized(view[2]));
        }
        sums.put(VIEWS, sum(views));
        List<String> routines = new ArrayList<>();
        for (String[] routine : rows(connection, "SELECT ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_TYPE, SPECIFIC_NAME, "
                + "ROUTINE_DEFINITION, EXTERNAL_NAME FROM INFORMATION_SCHEMA.ROUTINES")) {
            String body = engine.comparableRoutine(routine[4], routine[3]);
            routines.add(routine[0] + "." + routine[1] + " " + routine[2] + " " + normalized(body) + " " + routine[5]);
        }
        sums.put(ROUTINES, sum(routines));
        List<String> sequences = new ArrayList<>();
        for (String[] sequence : rows(connection, "SELECT SEQUENCE_SCHEMA, SEQUENCE_NAME, DATA_TYPE, INCREMENT, "
                + "MINIMUM_VALUE, MAXIMUM_VALUE, CYCLE_OPTION FROM INFORMATION_SCHEMA.SEQUENCES")) {
            sequences.add(String.join(" ", sequence));
        }
        sums.put(SEQUENCES, sum(sequences));
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
     * The primary key and UNIQUE constraints as their ordered columns; each foreign key as its columns, the table and
     * columns it references, and its rules. The engines list a key one column per row, grouped here by its (left out)
     * name.
     */
    private List<String> keysAndConstraints(Connection connection, DatabaseMetaData meta, List<CapturedTable> tables)
            throws SQLException {
        Map<String, StringBuilder> byName = new TreeMap<>();
        for (String[] column : rows(connection, "SELECT tc.TABLE_SCHEMA, tc.TABLE_NAME, tc.CONSTRAINT_TYPE, "
                + "tc.CONSTRAINT_SCHEMA, tc.CONSTRAINT_NAME, ku.ORDINAL_POSITION, ku.COLUMN_NAME "
                + "FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE ku "
                + "ON tc.CONSTRAINT_SCHEMA = ku.CONSTRAINT_SCHEMA AND tc.CONSTRAINT_NAME = ku.CONSTRAINT_NAME "
                + "WHERE tc.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE')")) {
            byName.computeIfAbsent(column[3] + "." + column[4], k -> new StringBuilder(
                            column[0] + "." + column[1] + " " + column[2]))
                    .append(' ').append(column[5]).append(column[6]);
        }
        for (CapturedTable table : tables) {
            try (ResultSet rows = meta.getImportedKeys(null, table.name().schema(), table.name().table())) {
                while (rows.next()) {
                    String kind = table.name().key() + " foreign key on update " + rows.getShort("UPDATE_RULE")
                            + " on delete " + rows.getShort("DELETE_RULE");
                    byName.computeIfAbsent(table.name().key() + " foreign key " + rows.getString("FK_NAME"),
                                    k -> new StringBuilder(kind))
                            .append(' ').append(rows.getShort("KEY_SEQ")).append(rows.getString("FKCOLUMN_NAME"))
                            .append(" -> ").append(rows.getString("PKTABLE_SCHEM")).append('.')
                            .append(rows.getString("PKTABLE_NAME")).append('.').append(rows.getString("PKCOLUMN_NAME"));
                }
            }
        }
        List<String> definitions = new ArrayList<>();
        byName.values().forEach(definition -> definitions.add(definition.toString()));
        return definitions;
    }

    /** Every row of {@code sql} whose first column (a schema) is not a system schema. */
    private List<String[]> rows(Connection connection, String sql) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                if (engine.isSystemSchema(result.getString(1))) {
                    continue;
                }
                String[] row = new String[columns];
                for (int i = 0; i < columns; i++) {
                    row[i] = result.getString(i + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** A definition's text without blanks outside quotes and without a trailing semicolon (see the class comment). */
    private static String normalized(String text) {
        return text == null ? null : SqlText.withoutBlanks(text);
    }

    private static TableChecksum sum(List<String> definitions) {
        long sum = 0;
        for (String definition : definitions) {
            sum += Hashes.mix(Hashes.of(definition));
        }
        return new TableChecksum(definitions.size(), sum);
    }
}
