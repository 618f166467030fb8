package io.macrodb.e2e;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection that made a schema change keeps no MacroDB catalog query in its H2 session's command cache, which H2
 * walks at the first write to each table of every later transaction on it (H2CommandCache; a pooled connection that
 * ran the application's migrations is the common case).
 */
class H2WriterSessionTest {

    @Test
    void aSchemaChangeLeavesNoCatalogQueryOnTheWritersSession() throws Exception {
        try (Connection c = Engine.connect(Engine.H2.url(2))) {
            Engine.execute(c, "CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT)",
                    "CREATE SEQUENCE ids", "ALTER TABLE account ADD COLUMN note VARCHAR(20)",
                    "INSERT INTO account VALUES (1, 10, 'a')");
            List<String> cached = cachedOnMaster(c);
            assertTrue(cached.stream().noneMatch(sql -> sql.toUpperCase().contains("INFORMATION_SCHEMA")),
                    "catalog queries left on the writer's session: " + cached);
            assertEquals(List.of("1 10 a"), Engine.rows(c, "SELECT id, balance, note FROM account"));
            Engine.assertReplicatedThenShutDown(c);
        }
    }

    /** The SQL texts H2 caches on the session of {@code c}'s master connection. */
    @SuppressWarnings("unchecked")
    private static List<String> cachedOnMaster(Connection c) throws Exception {
        Object macro = c.unwrap(io.macrodb.jdbc.MacroConnection.class);
        Field master = macro.getClass().getDeclaredField("master");
        master.setAccessible(true);
        Object session = master.get(macro);
        Method connection = session.getClass().getDeclaredMethod("connection");
        connection.setAccessible(true);
        SessionLocal engineSession = (SessionLocal) ((Connection) connection.invoke(session))
                .unwrap(JdbcConnection.class).getSession();
        Field cache = SessionLocal.class.getDeclaredField("queryCache");
        cache.setAccessible(true);
        Map<String, ?> commands = (Map<String, ?>) cache.get(engineSession);
        return commands == null ? List.of() : List.copyOf(commands.keySet());
    }
}
