import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * CPU time and bytes allocated per transaction of K one-row UPDATEs and a commit, counted by the thread itself over
 * 400,000 statements a round, three rounds (the last is printed). Arguments: the JDBC URL and K. A statement's undo
 * log records stay in the log's append buffer until 48 have been written or the transaction commits, unless
 * someone reads the log in between.
 */
public class UpdatesPerTransaction {

    public static void main(String[] args) throws SQLException {
        var thread = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int k = Integer.parseInt(args[1]);
        Connection c = DriverManager.getConnection(args[0]);
        c.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT, note VARCHAR(20))");
        c.createStatement().execute("INSERT INTO acct SELECT X, 0, 'abcdefgh' FROM SYSTEM_RANGE(1, 10000)");
        c.setAutoCommit(false);
        PreparedStatement update = c.prepareStatement("UPDATE acct SET v = v + 1 WHERE id = ?");
        int transactions = 400_000 / k;
        String line = "";
        for (int round = 0; round < 3; round++) {
            long bytes = thread.getCurrentThreadAllocatedBytes();
            long cpu = thread.getCurrentThreadCpuTime();
            int id = 0;
            for (int t = 0; t < transactions; t++) {
                for (int s = 0; s < k; s++) {
                    update.setInt(1, 1 + (id++ % 10000));
                    update.executeUpdate();
                }
                c.commit();
            }
            long allocated = thread.getCurrentThreadAllocatedBytes() - bytes;
            double micros = (thread.getCurrentThreadCpuTime() - cpu) / 1e3;
            line = args[0] + " K=" + k + " bytes/tx " + allocated / transactions
                    + " cpu us/tx " + String.format("%.2f", micros / transactions);
        }
        System.out.println(line);
    }
}
