package io.macrodb.jdbc;

import io.macrodb.api.MacroSqlState;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How a column added with a default that differs per evaluation is split into steps that replicate exactly. */
class ColumnWithComputedDefaultTest {

    /** What Liquibase's addColumn with defaultValueComputed and nullable=false sends to H2. */
    @Test
    void liquibasesAddColumn() throws SQLException {
        String sql = "ALTER TABLE PUBLIC.customer ADD created TIMESTAMP DEFAULT NOW() NOT NULL";
        assertEquals(StatementKind.Type.IN_STEPS, StatementKind.of(sql).type());
        SchemaChangeInSteps change = SchemaChangeInSteps.parse(sql);
        assertEquals("ALTER TABLE PUBLIC.customer ADD created TIMESTAMP", change.firstStep());
        assertEquals(List.of(
                new SchemaChangeInSteps.Step("ALTER TABLE PUBLIC.customer ALTER COLUMN created SET DEFAULT NOW()", true),
                new SchemaChangeInSteps.Step("UPDATE PUBLIC.customer SET created = NOW() WHERE created IS NULL", false),
                new SchemaChangeInSteps.Step("ALTER TABLE PUBLIC.customer ALTER COLUMN created SET NOT NULL", true)),
                change.laterSteps());
        assertEquals("ALTER TABLE PUBLIC.customer DROP COLUMN created", change.undo());
    }

    @Test
    void quotedNamesTypesWithParenthesesAndIfNotExists() throws SQLException {
        ColumnWithComputedDefault change = ColumnWithComputedDefault.parse(
                "alter table \"Shop\".\"Order\" add column if not exists \"Made At\" numeric(10, 2) "
                        + "default (rand() * 100) null;");
        assertEquals("\"Shop\".\"Order\"", change.table());
        assertEquals("\"Made At\"", change.column());
        assertEquals("alter table \"Shop\".\"Order\" add column if not exists \"Made At\" numeric(10, 2)",
                change.firstStep());
        assertEquals("(rand() * 100)", change.defaultValue());
        assertEquals(2, change.laterSteps().size(), "NULL asks for no SET NOT NULL");
    }

    /** Anything beyond a type, the default and a nullability is refused as before: MacroDB cannot split it. */
    @Test
    void moreThanOneColumnWithItsDefaultIsRefused() {
        for (String sql : List.of(
                "ALTER TABLE t ADD c TIMESTAMP DEFAULT NOW() UNIQUE",
                "ALTER TABLE t ADD c TIMESTAMP NOT NULL DEFAULT NOW()",
                "ALTER TABLE t ADD c TIMESTAMP DEFAULT NOW() BEFORE d",
                "ALTER TABLE t ADD (c TIMESTAMP DEFAULT NOW(), d INT)",
                "ALTER TABLE t ADD c TIMESTAMP DEFAULT NOW(), ADD d INT",
                "ALTER TABLE t ADD CONSTRAINT k CHECK (d < CURRENT_DATE)",
                "ALTER TABLE t ADD c TIMESTAMP DEFAULT NOW() ON UPDATE NOW()")) {
            SQLException refused = assertThrows(SQLException.class, () -> SchemaChangeInSteps.parse(sql), sql);
            assertEquals(MacroSqlState.NOT_REPLICABLE, refused.getSQLState(), sql);
        }
    }

    /** A view's query computes nothing when the view is created: it replays as it is (it used to be refused). */
    @Test
    void aViewOverANondeterministicQueryIsPlainDdl() throws SQLException {
        assertEquals(StatementKind.Type.SCHEMA_CHANGE,
                StatementKind.of("CREATE VIEW recent AS SELECT * FROM orders WHERE made > CURRENT_DATE - 7").type());
        assertEquals(StatementKind.Type.SCHEMA_CHANGE,
                StatementKind.of("ALTER TABLE t ALTER COLUMN made SET DEFAULT CURRENT_TIMESTAMP").type());
        assertEquals(StatementKind.Type.SCHEMA_CHANGE, StatementKind.of("ALTER TABLE t ADD c INT DEFAULT 7").type());
    }
}
