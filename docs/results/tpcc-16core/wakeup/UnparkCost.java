import java.util.concurrent.locks.LockSupport;
public class UnparkCost {
  static volatile boolean stop;
  public static void main(String[] a) throws Exception {
    Thread sleeper = new Thread(() -> { while (!stop) LockSupport.parkNanos(50_000_000L); });
    sleeper.setDaemon(true); sleeper.start();
    Thread.sleep(100);
    for (int round = 0; round < 3; round++) {
      long total = 0; int n = 20000; long max = 0;
      long[] s = new long[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < 100_000) { } // 100 us of "work" between commits
        long t1 = System.nanoTime();
        LockSupport.unpark(sleeper);
        long d = System.nanoTime() - t1;
        s[i] = d; total += d;
      }
      java.util.Arrays.sort(s);
      System.out.printf("unpark of a parked thread: mean %.2f us, p50 %.2f us, p99 %.2f us%n", total / 1000.0 / n, s[n/2]/1000.0, s[n*99/100]/1000.0);
    }
    // unpark of a running (not parked) thread
    Thread spinner = new Thread(() -> { while (!stop) Thread.onSpinWait(); });
    spinner.setDaemon(true); spinner.start();
    long total = 0; int n = 200000;
    for (int i = 0; i < n; i++) { long t1 = System.nanoTime(); LockSupport.unpark(spinner); total += System.nanoTime() - t1; }
    System.out.printf("unpark of a running thread: mean %.3f us%n", total / 1000.0 / n);
    stop = true;
  }
}
