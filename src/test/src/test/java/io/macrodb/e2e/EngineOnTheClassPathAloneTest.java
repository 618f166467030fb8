package io.macrodb.e2e;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URL;
import java.net.URLClassLoader;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The engines are optional dependencies: an application puts the one it uses on its class path, next to MacroDB's
 * driver and runtime, and nothing else. The service loader makes an instance of every engine class MacroDB ships, so
 * one that cannot even be verified without its engine's classes broke every user of the other engine: with HSQLDB
 * alone, no MacroDB connection could be opened (H2Engine, found 2026-11-27). Each engine runs here in a class loader
 * that holds MacroDB and that engine only.
 */
class EngineOnTheClassPathAloneTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void macroDbRunsWithOnlyItsEngineOnTheClassPath(Engine engine) throws Exception {
        Class<?> engineDriver = engine == Engine.H2 ? org.h2.Driver.class : org.hsqldb.jdbc.JDBCDriver.class;
        String otherDriver = engine == Engine.H2 ? "org.hsqldb.jdbc.JDBCDriver" : "org.h2.Driver";
        URL[] classPath = {location(io.macrodb.jdbc.MacroDriver.class),
                location(io.macrodb.runtime.engine.Engine.class), location(engineDriver)};
        try (URLClassLoader alone = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class, () -> alone.loadClass(otherDriver));
            // An application's DriverManager finds the engine's driver on its class path; this one is loaded here.
            Class.forName(engineDriver.getName(), true, alone);
            Driver macroDb = (Driver) alone.loadClass("io.macrodb.jdbc.MacroDriver").getDeclaredConstructor()
                    .newInstance();
            String url = engine.url(2).replace(":mem:", ":mem:alone_");
            try (Connection c = macroDb.connect(url, new Properties()); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
                s.execute("INSERT INTO t VALUES (1)");
                c.setReadOnly(true); // on the slave, once it has the row
                try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM t")) {
                    rows.next();
                    assertEquals(1, rows.getInt(1));
                }
                c.setReadOnly(false);
                s.execute("SHUTDOWN");
            }
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
