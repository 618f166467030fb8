package io.macrodb.runtime.engine.h2;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;

/**
 * Takes MacroDB's catalog queries out of a session's command cache. H2 keeps a session's last prepared commands by
 * their text (8 by default), and at the first write to each table in a transaction asks every cached query whether it
 * reads that table, walking its whole expression tree with a new set and visitor
 * ({@code SessionLocal.registerTableAsUpdated}). The catalog queries MacroDB runs after a schema change stayed cached on
 * the connection that made it (a pooled connection that ran the application's migrations, a benchmark's), and every
 * later update transaction on it walked four {@code INFORMATION_SCHEMA} queries per table it wrote: most of what
 * MacroDB added to a one-row update transaction on such a connection (JMH {@code OverheadBenchmark}, 2026-11-29:
 * 7,434-7,554 bytes per transaction before, 6,530 after, the bare engine 6,434).
 *
 * <p>Every cached query of {@code INFORMATION_SCHEMA} goes (an application's own is prepared again at its next use).
 * The cache is a private field, read by reflection; where it cannot be reached (another H2, H2 on the module path
 * without opens) the queries stay, as before: a cost, never a fault.
 */
final class H2CommandCache {

    /** {@code SessionLocal.queryCache}, or null where it cannot be reached. */
    private static final Field QUERY_CACHE = queryCacheField();

    private H2CommandCache() {
    }

    static void forgetCatalogQueries(Connection writer) {
        if (QUERY_CACHE == null) {
            return;
        }
        try {
            if (!(writer.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)) {
                return;
            }
            session.lock();
            try {
                if (QUERY_CACHE.get(session) instanceof Map<?, ?> commands) {
                    commands.keySet().removeIf(sql -> sql instanceof String text
                            && text.toUpperCase(Locale.ROOT).contains("INFORMATION_SCHEMA"));
                }
            } finally {
                session.unlock();
            }
        } catch (SQLException | ReflectiveOperationException | RuntimeException e) {
            // the cache stays as H2 left it
        }
    }

    private static Field queryCacheField() {
        try {
            Field field = SessionLocal.class.getDeclaredField("queryCache");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
