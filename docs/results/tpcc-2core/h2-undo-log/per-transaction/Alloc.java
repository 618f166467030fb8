import java.sql.*;
import java.lang.management.*;
public class Alloc {
  public static void main(String[] a) throws Exception {
    com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Connection c = DriverManager.getConnection(a[0]);
    c.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT)");
    c.createStatement().execute("INSERT INTO acct SELECT X, 0 FROM SYSTEM_RANGE(1, 10000)");
    c.setAutoCommit(false);
    PreparedStatement p = c.prepareStatement("UPDATE acct SET v = v + 1 WHERE id = ?");
    for (int round = 0; round < 5; round++) {
      int n = 200_000;
      long b0 = t.getCurrentThreadAllocatedBytes(); long c0 = t.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) { p.setInt(1, 1 + (i % 10000)); p.executeUpdate(); c.commit(); }
      long b1 = t.getCurrentThreadAllocatedBytes(); long c1 = t.getCurrentThreadCpuTime();
      System.out.println(a[0] + " bytes/op " + (b1 - b0) / n + " cpu ns/op " + (c1 - c0) / n);
    }
  }
}
