package io.macrodb.jdbc;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A pooled connection's SET statements are kept once each, in the order they last ran. */
class SessionStatementsTest {

    private static SessionStatement setting(String sql) {
        return new SessionStatement(sql, null, null, null);
    }

    private static SessionStatement variable(String name, int value) {
        return new SessionStatement("SET @" + name + " = " + value, name, null, null);
    }

    @Test
    void aStatementRunAgainReplacesItselfAndMovesLast() {
        SessionStatements statements = new SessionStatements();
        for (int i = 0; i < 10_000; i++) { // a framework's statement at every transaction, a variable per request
            statements.record(setting("SET TRANSACTION READ ONLY"));
            statements.record(variable(i % 2 == 0 ? "x" : "X", i));
        }
        statements.record(setting("SET LOCK_TIMEOUT 1000"));
        statements.record(setting("SET LOCK_TIMEOUT 2000"));
        statements.record(setting("SET LOCK_TIMEOUT 1000 "));
        assertEquals(4, statements.size());
        assertEquals(List.of("SET TRANSACTION READ ONLY", "SET LOCK_TIMEOUT 2000", "SET LOCK_TIMEOUT 1000 "),
                statements.settings(), "in the order they last ran: the last value wins on replay");
        assertEquals(20_003, statements.last());
    }
}
