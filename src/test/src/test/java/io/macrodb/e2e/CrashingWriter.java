package io.macrodb.e2e;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;

/**
 * Run in a JVM of its own by {@link FileDatabaseTest}: commits {@code rows} single-row transactions through MacroDB,
 * printing each id once its commit has returned, then halts the JVM at once (no shutdown hook runs, nothing is
 * flushed on the way out): a crash right after a commit.
 */
public final class CrashingWriter {

    private CrashingWriter() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int rows = Integer.parseInt(args[1]);
        PrintStream out = System.out;
        try (Connection connection = DriverManager.getConnection(url)) {
            try (var statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS crash (id INT PRIMARY KEY, payload VARCHAR(100))");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO crash VALUES (?, ?)")) {
                for (int id = 1; id <= rows; id++) {
                    insert.setInt(1, id);
                    insert.setString(2, "row " + id);
                    insert.executeUpdate(); // auto-commit: returns once committed
                    out.println(id);
                    out.flush();
                }
            }
            Runtime.getRuntime().halt(3);
        }
    }
}
