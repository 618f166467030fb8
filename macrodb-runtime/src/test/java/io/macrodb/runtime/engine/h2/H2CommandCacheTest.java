package io.macrodb.runtime.engine.h2;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class H2CommandCacheTest {

    @Test
    void catalogQueriesLeaveTheSessionsCacheAndTheApplicationsStay() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:h2:mem:command-cache-" + System.nanoTime());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            List<String> queries = List.of("SELECT v FROM t WHERE id = 1",
                    "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'",
                    "select trigger_name from information_schema.triggers");
            for (String query : queries) {
                try (ResultSet rows = s.executeQuery(query)) {
                    rows.next();
                }
            }
            assertTrue(cached(c).containsAll(queries), "H2 caches each query by its text: " + cached(c));

            new H2Engine().afterCatalogRead(c);

            assertEquals(Set.of("SELECT v FROM t WHERE id = 1"), Set.copyOf(cached(c)));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> cached(Connection c) throws Exception {
        SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
        Field cache = SessionLocal.class.getDeclaredField("queryCache");
        cache.setAccessible(true);
        return List.copyOf(((Map<String, ?>) cache.get(session)).keySet());
    }
}
