import io.macrodb.api.MacroCluster;
import io.macrodb.bench.LoadProgress;
import io.macrodb.bench.run.HeapMeter;
import io.macrodb.bench.targets.Database;
import io.macrodb.bench.targets.Target;
import io.macrodb.tpcc.TpccLoader;
import io.macrodb.tpcc.TpccScale;
import java.sql.Connection;

/**
 * TPC-C at 1 warehouse through MacroDB with 4 replicas: retained heap after load, then after each slave is rebuilt.
 * The engine is the first argument, h2 (the default) or hsqldb.
 */
public class RebuildMemory {
    public static void main(String[] args) throws Exception {
        String engine = args.length > 0 ? args[0] : "h2";
        String url = engine.equals("h2") ? "jdbc:macrodb:h2:mem:{db};DB_CLOSE_DELAY=-1;macrodb.replicas=4"
                : "jdbc:macrodb:" + engine + ":mem:{db};macrodb.replicas=4";
        long base = HeapMeter.retainedHeapBytes();
        Database db = new Target("r4", url).freshDatabase("tpcc");
        new TpccLoader(TpccScale.spec(1)).load(db, 42, LoadProgress.NONE);
        try (Connection c = db.connect()) {
            MacroCluster cluster = db.cluster(c).orElseThrow();
            db.awaitReplicasCaughtUp(java.time.Duration.ofMinutes(2));
            System.out.printf("after load: %d MB%n", (HeapMeter.retainedHeapBytes() - base) >> 20);
            for (int i = 1; i <= 3; i++) {
                cluster.rebuildReplica(i);
                System.out.printf("after rebuilding slave %d: %d MB%n", i, (HeapMeter.retainedHeapBytes() - base) >> 20);
            }
            System.out.println("identical: " + cluster.verify().identical());
            cluster.shutdown();
        }
    }
}
