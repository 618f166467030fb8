import java.sql.*;
import java.lang.management.*;
public class AllocWide {
  public static void main(String[] a) throws Exception {
    com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Connection c = DriverManager.getConnection(a[0]);
    c.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT, c1 VARCHAR(20) DEFAULT 'abcdefgh', c2 VARCHAR(20) DEFAULT 'abcdefgh', c3 VARCHAR(20) DEFAULT 'abcdefgh', c4 VARCHAR(20) DEFAULT 'abcdefgh', c5 VARCHAR(20) DEFAULT 'abcdefgh', c6 VARCHAR(20) DEFAULT 'abcdefgh', c7 VARCHAR(20) DEFAULT 'abcdefgh', c8 VARCHAR(20) DEFAULT 'abcdefgh', c9 VARCHAR(20) DEFAULT 'abcdefgh', c10 VARCHAR(20) DEFAULT 'abcdefgh', c11 DECIMAL(12,2) DEFAULT 1.5, c12 DECIMAL(12,2) DEFAULT 1.5, c13 DECIMAL(12,2) DEFAULT 1.5, c14 DECIMAL(12,2) DEFAULT 1.5, c15 TIMESTAMP DEFAULT CURRENT_TIMESTAMP, c16 INT DEFAULT 1, c17 INT DEFAULT 1, c18 INT DEFAULT 1)");
    c.createStatement().execute("INSERT INTO acct (id, v) SELECT X, 0 FROM SYSTEM_RANGE(1, 10000)");
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
