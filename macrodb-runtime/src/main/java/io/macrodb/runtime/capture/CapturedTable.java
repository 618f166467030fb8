package io.macrodb.runtime.capture;

import java.util.List;

/**
 * The shape of one user table as the master's catalog defines it, with the keyed statements that apply its row
 * changes on a slave. Immutable: a DDL statement makes a new one, and write sets queued before it keep the old.
 *
 * <p>Rows are matched by primary key; a table without one is matched on every column, and its statements touch
 * exactly one row (identical rows are interchangeable, so any one of them gives the same contents).
 */
public final class CapturedTable {

    /** A table's schema and name, as the engine's catalog spells them. */
    public record Name(String schema, String table) {
        /** Key used by the catalog and the row logs ({@code schema.table}, as the engine names them). */
        public String key() {
            return schema + "." + table;
        }

        public String quoted() {
            return quote(schema) + "." + quote(table);
        }
    }

    /**
     * One column: name, {@link java.sql.Types} code, the engine's type name, and whether the engine computes it
     * ({@code GENERATED ALWAYS AS (expr)}): every replica computes such a column from the row's other values, and
     * none accepts a value for it, so slaves never bind one.
     */
    public record Column(String name, int jdbcType, String typeName, boolean generated) {
        public Column(String name, int jdbcType, String typeName) {
            this(name, jdbcType, typeName, false);
        }
    }

    private final Name name;
    private final List<Column> columns;
    private final int[] keyColumns;
    private final int identityColumn;
    private final boolean identityAlways;
    private final ValueConverter[] converters;
    private final boolean needsConversion;
    private final KeylessMatch keylessMatch;
    private final int[] insertedColumns;
    private final int[] setColumns;
    private final long generatedColumns;
    private final String setClause;
    private final String insertSql;
    private final String updateSql;
    private final String deleteSql;
    private final long uniqueColumns;

    /**
     * @param keyColumns     indexes of the primary key columns; empty when the table has none
     * @param identityColumn index of the identity column, or -1
     * @param identityAlways whether that column is GENERATED ALWAYS (its value must be given with OVERRIDING)
     * @param converters     per column, the engine's value converter or null
     * @param keylessMatch   how the engine's SQL changes one row of a table without a key
     * @param uniqueColumns  the columns of the primary key and of every unique index, as a bit mask (bit i = column
     *                       i; -1 when the table has more than 64 columns and any unique index)
     */
    public CapturedTable(Name name, List<Column> columns, int[] keyColumns, int identityColumn,
                         boolean identityAlways, ValueConverter[] converters, KeylessMatch keylessMatch,
                         long uniqueColumns) {
        this.name = name;
        this.uniqueColumns = uniqueColumns;
        this.columns = List.copyOf(columns);
        this.keyColumns = keyColumns.clone();
        this.identityColumn = identityColumn;
        this.identityAlways = identityColumn >= 0 && identityAlways;
        this.converters = converters.clone();
        boolean convert = false;
        for (ValueConverter c : converters) {
            convert |= c != null;
        }
        this.needsConversion = convert;

        this.insertedColumns = java.util.stream.IntStream.range(0, columns.size())
                .filter(i -> !columns.get(i).generated()).toArray();
        this.setColumns = java.util.Arrays.stream(insertedColumns)
                .filter(i -> !(this.identityAlways && i == identityColumn)).toArray();
        long generated = 0;
        for (int i = 0; i < columns.size() && i < Long.SIZE; i++) {
            generated |= columns.get(i).generated() ? 1L << i : 0;
        }
        this.generatedColumns = generated;
        StringBuilder insert = new StringBuilder("INSERT INTO ").append(name.quoted()).append(" (");
        StringBuilder values = new StringBuilder();
        for (int i : insertedColumns) {
            boolean first = values.length() == 0;
            insert.append(first ? "" : ", ").append(quote(columns.get(i).name()));
            values.append(first ? "?" : ", ?");
        }
        insert.append(")").append(identityAlways ? " OVERRIDING SYSTEM VALUE" : "").append(" VALUES (")
                .append(values).append(")");
        this.keylessMatch = keylessMatch;
        this.insertSql = insert.toString();
        StringBuilder set = new StringBuilder();
        for (int i : setColumns) {
            set.append(set.length() == 0 ? "" : ", ").append(quote(columns.get(i).name())).append(" = ?");
        }
        this.setClause = set.toString();
        boolean keyed = keyColumns.length > 0;
        this.updateSql = keyed ? updateSql(null) : null;
        this.deleteSql = keyed ? deleteSql(null) : null;
    }

    /**
     * Matches a row by the match columns' old values. A key column is never null, so keyed tables use {@code = ?}
     * always; a table without a key matches a null value with {@code IS NULL} (and binds nothing for it), since an
     * untyped {@code IS NOT DISTINCT FROM ?} is not accepted by every engine, and an array with the engine's
     * {@link KeylessMatch#arrayEquals} (its elements may be NULL).
     */
    private String matchClause(Object[] before) {
        StringBuilder where = new StringBuilder();
        for (int i : matchColumns()) {
            boolean array = columns.get(i).jdbcType() == java.sql.Types.ARRAY;
            where.append(where.length() == 0 ? "" : " AND ").append(quote(columns.get(i).name()))
                    .append(before != null && before[i] == null ? " IS NULL"
                            : " " + (array ? keylessMatch.arrayEquals() : "=") + " ?");
            if (before != null && before[i] != null) {
                where.append(exactly(columns.get(i), before[i]));
            }
        }
        return where.toString();
    }

    /**
     * For a table without a key: what else a row must match, besides {@code column = ?}, to hold exactly
     * {@code value}. SQL equality is coarser than identity for some values, and a slave that picked a row equal but
     * not identical to the master's would diverge without noticing (measured: 'ABC' deleted on the master, 'abc' on
     * every slave). A varying text, which may be case-insensitive or compared with HSQLDB's PAD SPACE ('a' = 'a '):
     * the text compared case-sensitively, and its length; a value WITH TIME ZONE (equal when the instants are): its offset; a zero
     * (-0.0 = 0.0): its sign. Values are inlined, as literals that are exact for them. Arrays are compared as the
     * engine compares them.
     */
    private static String exactly(Column column, Object value) {
        String name = quote(column.name());
        boolean varying = switch (column.jdbcType()) { // (HSQLDB names a VARCHAR_IGNORECASE column just VARCHAR)
            case java.sql.Types.VARCHAR, java.sql.Types.LONGVARCHAR, java.sql.Types.NVARCHAR,
                    java.sql.Types.LONGNVARCHAR -> true;
            default -> false;
        };
        if (value instanceof String text && varying) {
            return " AND CAST(" + name + " AS VARCHAR) = '" + text.replace("'", "''") + "' AND CHAR_LENGTH(" + name
                    + ") = " + text.length();
        }
        java.time.ZoneOffset offset = value instanceof java.time.OffsetDateTime t ? t.getOffset()
                : value instanceof java.time.OffsetTime t ? t.getOffset() : null;
        if (offset != null) {
            int seconds = offset.getTotalSeconds();
            return " AND EXTRACT(TIMEZONE_HOUR FROM " + name + ") = " + seconds / 3600
                    + " AND EXTRACT(TIMEZONE_MINUTE FROM " + name + ") = " + seconds % 3600 / 60;
        }
        boolean negativeZero = value instanceof Double d ? Double.doubleToRawLongBits(d) == Long.MIN_VALUE
                : value instanceof Float f && Float.floatToRawIntBits(f) == Integer.MIN_VALUE;
        boolean zero = negativeZero || (value instanceof Double d && d == 0.0) || (value instanceof Float f && f == 0f);
        if (zero) {
            return " AND CAST(" + name + " AS VARCHAR(40)) " + (negativeZero ? "" : "NOT ") + "LIKE '-%'";
        }
        return "";
    }

    /**
     * The columns an UPDATE changed, as a bit mask (bit i = column i), or -1 when the table has more than 64
     * columns. Equal values count as unchanged; BigDecimal's scale and array contents are compared as they are.
     */
    public long changedColumns(Object[] before, Object[] after) {
        if (columns.size() > Long.SIZE) {
            return -1;
        }
        long mask = 0;
        for (int i = 0; i < columns.size(); i++) {
            Object a = before[i];
            Object b = after[i];
            if (a != b && !(a != null && (a instanceof byte[] x && b instanceof byte[] y
                    ? java.util.Arrays.equals(x, y) : a.equals(b)))) {
                mask |= 1L << i;
            }
        }
        return mask;
    }

    /**
     * A keyed UPDATE that sets only the columns in {@code changed} (from {@link #changedColumns}). Exact: the slave
     * held the same row as the master at the previous version, so the other columns already have their values.
     */
    public String updateSql(long changed) {
        StringBuilder set = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            if ((changed & (1L << i)) != 0) {
                set.append(set.length() == 0 ? "" : ", ").append(quote(columns.get(i).name())).append(" = ?");
            }
        }
        return "UPDATE " + name.quoted() + " SET " + set + " WHERE " + matchClause(null);
    }

    /**
     * Whether an UPDATE from {@code before} to {@code after} changes a column of the primary key or of a unique index:
     * such updates, several in one statement, may pass through states a unique index refuses (see
     * {@link TransactionCapture#statementEnded}).
     */
    public boolean changesUniqueColumns(Object[] before, Object[] after) {
        if (uniqueColumns == 0) {
            return false;
        }
        long changed = changedColumns(before, after);
        return changed == -1 || (changed & uniqueColumns) != 0;
    }

    /** Whether the statements can be prepared once: true for keyed tables. */
    public boolean keyed() {
        return keyColumns.length > 0;
    }

    /** The UPDATE for a change whose old row is {@code before} (ignored, and may be null, for keyed tables). */
    public String updateSql(Object[] before) {
        if (updateSql != null) {
            return updateSql;
        }
        return "UPDATE " + name.quoted() + " SET " + setClause + " WHERE " + matchClause(before)
                + (keyed() ? "" : " " + keylessMatch.limitOneRow());
    }

    /** The DELETE for a change whose old row is {@code before} (ignored, and may be null, for keyed tables). */
    public String deleteSql(Object[] before) {
        if (deleteSql != null) {
            return deleteSql;
        }
        return "DELETE FROM " + name.quoted() + " WHERE " + matchClause(before)
                + (keyed() ? "" : " " + keylessMatch.limitOneRow());
    }

    /** The columns that identify a row: the primary key, or every column when there is none. */
    public int[] matchColumns() {
        if (keyColumns.length > 0) {
            return keyColumns;
        }
        int[] all = new int[columns.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /** Converts a row as the engine stores it; returns the same array when no column needs converting. */
    public Object[] capture(Object[] engineRow) throws java.sql.SQLException {
        return capture(engineRow, null, null);
    }

    /**
     * Converts the old row of a change, {@code after} its new row (null for a delete) and {@code capturedAfter} that
     * converted: a column whose very value an update kept (both engines make the new row from a copy of the old)
     * takes the new row's converted value instead of being converted again (HSQLDB's timestamps, which TPC-C's
     * Payment and Delivery keep). Returns the same array when no column needs converting.
     */
    public Object[] captureOld(Object[] before, Object[] after, Object[] capturedAfter) throws java.sql.SQLException {
        return capture(before, after, capturedAfter);
    }

    private Object[] capture(Object[] engineRow, Object[] converted, Object[] convertedTo)
            throws java.sql.SQLException {
        if (engineRow == null || !needsConversion) {
            return engineRow;
        }
        Object[] row = new Object[engineRow.length];
        for (int i = 0; i < row.length; i++) {
            Object value = engineRow[i];
            ValueConverter converter = i < converters.length ? converters[i] : null;
            if (converter == null || value == null) {
                row[i] = value;
            } else if (converted != null && i < converted.length && converted[i] == value) {
                row[i] = convertedTo[i];
            } else {
                row[i] = converter.convert(value);
            }
        }
        return row;
    }

    public Name name() {
        return name;
    }

    public List<Column> columns() {
        return columns;
    }

    public int identityColumn() {
        return identityColumn;
    }

    /** Whether the identity column is GENERATED ALWAYS: given with OVERRIDING on insert, left out of updates. */
    public boolean identityAlways() {
        return identityAlways;
    }

    /** The INSERT of a whole row; binds the values of {@link #insertedColumns()}, in that order. */
    public String insertSql() {
        return insertSql;
    }

    /**
     * The columns an INSERT binds: every one but those the engine computes. The array itself, read for every row an
     * applier writes: callers must not change it.
     */
    public int[] insertedColumns() {
        return insertedColumns;
    }

    /** The columns an UPDATE of the whole row binds: the inserted ones less a GENERATED ALWAYS identity (as above). */
    public int[] setColumns() {
        return setColumns;
    }

    /** {@code changed} (from {@link #changedColumns}) less the columns the engine computes, which no one may set. */
    public long settable(long changed) {
        return changed & ~generatedColumns;
    }


    /** An identifier in double quotes, inner quotes doubled: exact whatever its case or characters. */
    public static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    @Override
    public String toString() {
        return name.key();
    }
}
