package io.macrodb.runtime.engine.hsqldb;

import io.macrodb.api.MacroSqlState;
import io.macrodb.runtime.capture.CapturedTable;
import io.macrodb.runtime.capture.ValueConverter;
import io.macrodb.runtime.engine.CaptureTriggers;
import io.macrodb.runtime.engine.Engine;
import io.macrodb.runtime.engine.EngineUrl;
import io.macrodb.runtime.engine.SqlQueries;
import org.hsqldb.lib.StringConverter;
import org.hsqldb.types.BinaryData;
import org.hsqldb.types.TimeData;
import org.hsqldb.types.TimestampData;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * HSQLDB 2.7, embedded ({@code mem:} and {@code file:}). Captures with three row triggers (one per event, {@code QUEUE
 * 0} so they fire in the writer's thread). HSQLDB hands triggers some of its internal value types (TimestampData,
 * TimeData, BinaryData); they are converted once at capture into {@code java.time} values and byte arrays that a
 * slave can bind. LOB columns cannot be captured (the trigger sees only a LOB id, readable only in the master's
 * session): a write to one is refused before it commits.
 *
 * <p>This class is loaded by service loader even when HSQLDB is absent; only the converters touch HSQLDB's classes,
 * and they run only when HSQLDB is the engine.
 */
public final class HsqldbEngine implements Engine {

    private static final List<String> KINDS = List.of("file", "mem");
    private static final int SECONDS_PER_DAY = 86_400;

    @Override
    public String name() {
        return "hsqldb";
    }

    @Override
    public boolean accepts(String engineUrl) {
        return engineUrl.regionMatches(true, 0, "hsqldb:", 0, 7);
    }

    /**
     * Slaves run in the mode the URL asks for, like the master. Forcing MVCC or MVLOCKS on slaves was measured and is
     * far worse: in those modes HSQLDB takes a per-table read-write lock on every row access, so long read-only scans
     * and the applier's writes stall each other (TPC-C 80-20, 4 clients: about 10x slower than LOCKS slaves).
     */
    @Override
    public boolean inMemory(String engineUrl) throws SQLException {
        return EngineUrl.parse(engineUrl, "hsqldb", KINDS).inMemory();
    }

    @Override
    public String replicaUrl(String engineUrl, int index) throws SQLException {
        EngineUrl url = EngineUrl.parse(engineUrl, "hsqldb", KINDS);
        return url.replicaUrl(index, url.settings());
    }

    @Override
    public String existingDatabaseUrl(String replicaUrl) {
        return replicaUrl.replaceAll("(?i);ifexists=[^;]*", "") + ";ifexists=true";
    }

    /** Also HSQLDB's "database does not exist" (error -465), what {@link #existingDatabaseUrl} gets for a lost one. */
    @Override
    public boolean isDatabaseLost(SQLException error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getErrorCode() == -org.hsqldb.error.ErrorCode.DATABASE_NOT_EXISTS) {
                return true;
            }
        }
        return Engine.super.isDatabaseLost(error);
    }

    @Override
    public boolean hasColumnsGeneratedBySequence(Connection connection) throws SQLException {
        return !SqlQueries.strings(connection,
                "SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.SYSTEM_COLUMN_SEQUENCE_USAGE").isEmpty();
    }

    @Override
    public boolean isSystemSchema(String schema) {
        return "INFORMATION_SCHEMA".equals(schema) || "SYSTEM_LOBS".equals(schema);
    }

    @Override
    public List<String> installCaptureTriggers(CapturedTable.Name table) {
        return List.of(trigger('I', "INSERT", table), trigger('U', "UPDATE", table), trigger('D', "DELETE", table));
    }

    private static String trigger(char event, String operation, CapturedTable.Name table) {
        return "CREATE TRIGGER " + CapturedTable.quote(table.schema()) + "."
                + CapturedTable.quote(CaptureTriggers.name(event, table)) + " AFTER " + operation + " ON "
                + table.quoted() + " FOR EACH ROW QUEUE 0 CALL \"" + HsqldbCaptureTrigger.class.getName() + "\"";
    }

    @Override
    public String tableKeyOfTrigger(String triggerName) {
        return CaptureTriggers.tableKey(triggerName);
    }

    /** Types whose values HSQLDB hands to triggers as plain Java objects: no converter, so no row copy. */
    private static final java.util.Set<Integer> PLAIN = java.util.Set.of(Types.CHAR, Types.VARCHAR,
            Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.BOOLEAN, Types.TINYINT, Types.SMALLINT,
            Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC, Types.REAL, Types.FLOAT, Types.DOUBLE);

    @Override
    public ValueConverter converterFor(CapturedTable.Column column) {
        if (PLAIN.contains(column.jdbcType())) {
            return null;
        }
        return switch (column.jdbcType()) {
            case Types.DATE -> value -> value instanceof TimestampData t
                    ? LocalDate.ofEpochDay(Math.floorDiv(t.getSeconds(), SECONDS_PER_DAY)) : value;
            case Types.TIMESTAMP -> value -> value instanceof TimestampData t
                    ? LocalDateTime.ofEpochSecond(t.getSeconds(), t.getNanos(), ZoneOffset.UTC) : value;
            case Types.TIMESTAMP_WITH_TIMEZONE -> value -> value instanceof TimestampData t
                    ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(t.getSeconds(), t.getNanos()),
                    ZoneOffset.ofTotalSeconds(t.getZone())) : value;
            case Types.TIME -> value -> value instanceof TimeData t
                    ? LocalTime.ofNanoOfDay(Math.floorMod(t.getSeconds(), SECONDS_PER_DAY) * 1_000_000_000L
                    + t.getNanos()) : value;
            case Types.TIME_WITH_TIMEZONE -> value -> value instanceof TimeData t
                    ? OffsetTime.of(LocalTime.ofNanoOfDay(Math.floorMod(t.getSeconds() + t.getZone(), SECONDS_PER_DAY)
                    * 1_000_000_000L + t.getNanos()), ZoneOffset.ofTotalSeconds(t.getZone())) : value;
            // BIT and BIT VARYING are bit strings: a trigger sees BinaryData, which no slave can bind. Their '0'/'1'
            // text binds to either (a byte array would pad a BIT VARYING to whole bytes).
            case Types.BIT -> value -> value instanceof BinaryData b
                    ? StringConverter.byteArrayToBitString(b.getBytes(), (int) b.bitLength(null)) : value;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.OTHER ->
                    value -> value instanceof BinaryData b ? b.getBytes() : refuseInternal(column, value);
            case Types.BLOB, Types.CLOB, Types.NCLOB -> value -> {
                throw new SQLException("MacroDB cannot replicate a write to LOB column " + column.name()
                        + " on HSQLDB: the trigger sees only a LOB id. Use VARCHAR/VARBINARY, or H2.",
                        MacroSqlState.NOT_REPLICABLE);
            };
            default -> value -> refuseInternal(column, value);
        };
    }

    /** Plain Java values pass; an HSQLDB-internal type nobody converts would bind wrongly on a slave, so refuse. */
    private static Object refuseInternal(CapturedTable.Column column, Object value) throws SQLException {
        if (value.getClass().getName().startsWith("org.hsqldb.")) {
            throw new SQLException("MacroDB cannot replicate values of type " + column.typeName() + " (column "
                    + column.name() + ") on HSQLDB yet.", MacroSqlState.NOT_REPLICABLE);
        }
        return value;
    }

    @Override
    public Map<String, Long> sequenceState(Connection connection) throws SQLException {
        return SqlQueries.qualifiedLongs(connection, "SELECT SEQUENCE_SCHEMA, SEQUENCE_NAME, NEXT_VALUE "
                + "FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA NOT IN ('SYSTEM_LOBS', "
                + "'INFORMATION_SCHEMA')", true);
    }

    @Override
    public String restartSequence(String quotedSequence, long next) {
        return "ALTER SEQUENCE " + quotedSequence + " RESTART WITH " + next;
    }

    /** HSQLDB moves an identity counter past every value inserted explicitly, so slaves follow without help. */
    @Override
    public Map<String, Long> identityState(Connection connection) {
        return Map.of();
    }

    @Override
    public String restartIdentity(CapturedTable table, long next) {
        return "ALTER TABLE " + table.name().quoted() + " ALTER COLUMN "
                + CapturedTable.quote(table.columns().get(table.identityColumn()).name()) + " RESTART WITH " + next;
    }

    @Override
    public String limitOneRow() {
        return "LIMIT 1";
    }

    @Override
    public List<String> snapshot(Connection source) throws SQLException {
        return SqlQueries.strings(source, "SCRIPT");
    }

    @Override
    public String referentialIntegrity(boolean enabled) {
        return "SET DATABASE REFERENTIAL INTEGRITY " + enabled;
    }

    @Override
    public void shutdown(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SHUTDOWN");
    }

    @Override
    public void discard(Connection connection) throws SQLException {
        SqlQueries.execute(connection, "SHUTDOWN IMMEDIATELY");
    }
}
