import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * CPU time and bytes allocated per one-row UPDATE + commit, counted by the thread itself over 200,000 transactions,
 * five rounds. Arguments: the JDBC URL, and the table's width: 2 (id, v) or 20 (id, v and 18 more columns with
 * defaults, as wide as TPC-C's CUSTOMER and STOCK).
 */
public class OneRowUpdate {

    public static void main(String[] args) throws SQLException {
        com.sun.management.ThreadMXBean thread = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Connection c = DriverManager.getConnection(args[0]);
        c.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT" + moreColumns(Integer.parseInt(args[1]))
                + ")");
        c.createStatement().execute("INSERT INTO acct (id, v) SELECT X, 0 FROM SYSTEM_RANGE(1, 10000)");
        c.setAutoCommit(false);
        PreparedStatement update = c.prepareStatement("UPDATE acct SET v = v + 1 WHERE id = ?");
        for (int round = 0; round < 5; round++) {
            int n = 200_000;
            long bytes = thread.getCurrentThreadAllocatedBytes();
            long cpu = thread.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                update.setInt(1, 1 + (i % 10000));
                update.executeUpdate();
                c.commit();
            }
            System.out.println(args[0] + " width " + args[1] + " bytes/op "
                    + (thread.getCurrentThreadAllocatedBytes() - bytes) / n + " cpu ns/op "
                    + (thread.getCurrentThreadCpuTime() - cpu) / n);
        }
    }

    /** The columns after (id, v) for a table of {@code width} columns: text, numbers, a timestamp, integers. */
    private static String moreColumns(int width) {
        StringBuilder columns = new StringBuilder();
        for (int i = 1; i <= width - 2; i++) {
            String type = i <= 10 ? "VARCHAR(20) DEFAULT 'abcdefgh'" : i <= 14 ? "DECIMAL(12,2) DEFAULT 1.5"
                    : i == 15 ? "TIMESTAMP DEFAULT CURRENT_TIMESTAMP" : "INT DEFAULT 1";
            columns.append(", c").append(i).append(' ').append(type);
        }
        return columns.toString();
    }
}
