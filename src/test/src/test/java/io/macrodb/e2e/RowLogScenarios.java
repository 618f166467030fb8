package io.macrodb.e2e;

import io.macrodb.api.MacroCluster;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Scenarios both engines' row logs must pass alike ({@code H2RowLogTest}, {@code HsqldbRowLogTest}). */
final class RowLogScenarios {

    private RowLogScenarios() {
    }

    /**
     * A table the catalog does not know (made behind MacroDB's back) is refused with {@code 0AM01}, its statement
     * alone undone: the transaction's earlier update commits, and every replica ends identical. {@code c} is a fresh
     * cluster's connection in manual-commit mode with a table {@code item (id, qty)} holding id 1; it is shut down.
     */
    static void unknownTableUndoesItsStatementOnly(Connection c) throws Exception {
        MacroCluster cluster = c.unwrap(MacroCluster.class);
        try (Connection master = Engine.behindMacroDbsBack(cluster, 0, "CREATE TABLE stray (id INT)")) {
            master.commit();
        }
        Engine.execute(c, "UPDATE item SET qty = 99 WHERE id = 1");
        SQLException refused = assertThrows(SQLException.class,
                () -> Engine.execute(c, "INSERT INTO stray VALUES (1)"));
        assertEquals("0AM01", refused.getSQLState(), refused::getMessage);
        c.commit();
        assertEquals(List.of("0"), Engine.rows(c, "SELECT COUNT(*) FROM stray"));
        assertEquals(List.of("99"), Engine.rows(c, "SELECT qty FROM item WHERE id = 1"));
        c.commit(); // the reads' locks go: HSQLDB's DROP TABLE waits for them
        try (Connection master = Engine.behindMacroDbsBack(cluster, 0, "DROP TABLE stray")) {
            master.commit();
        }
        Engine.assertReplicatedThenShutDown(c);
    }
}
