package io.macrodb.tpcc;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The targets the tests run on: both engines (HSQLDB in both transaction modes) and MacroDB once its driver loads. */
public final class TestTargets {

    private TestTargets() {
    }

    /** Whether a JDBC driver accepts {@code jdbc:macrodb:} URLs on the test class path. */
    public static boolean macroDbAvailable() {
        try {
            return DriverManager.getDriver("jdbc:macrodb:h2:mem:probe;macrodb.replicas=2") != null;
        } catch (SQLException e) {
            return false;
        }
    }

    /** h2, hsqldb, hsqldb-mvcc, and macrodb-h2-r2, macrodb-hsqldb-r2 when MacroDB is available. */
    public static List<String> all() {
        var targets = new ArrayList<>(List.of("h2", "hsqldb", "hsqldb-mvcc"));
        if (macroDbAvailable()) {
            targets.add("macrodb-h2-r2");
            targets.add("macrodb-hsqldb-r2");
        }
        return targets;
    }

    /** The bare engines only. */
    public static List<String> engines() {
        return List.of("h2", "hsqldb");
    }
}
