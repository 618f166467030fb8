#!/usr/bin/env bash
# Re-check of the 2-core TPC-C figures on 2026-11-29 (HEAD of that day), the shared 2-core machine.
# 1) HSQLDB and H2, each alone and through MacroDB with replicas 1 and 2, standard mix, 1 and 8 clients.
# 2) The jar of 05232a5 (2026-11-27, the "after" of hsqldb-row-log/) against this day's, alternated five times,
#    replicas=2 at one client, to see whether two sessions of correctness work cost throughput.
#    Build each commit with `mvn -q -B package -DskipTests -pl tpcc-bench -am` and copy its jar as named here.
set -euo pipefail
java -Xmx8g -jar tpcc-bench-new.jar --targets hsqldb,macrodb-hsqldb-r1,macrodb-hsqldb-r2 --baseline hsqldb \
     --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 5 --load sweep --max-attempts 1000 --out hsqldb
java -Xmx8g -jar tpcc-bench-new.jar --targets h2,macrodb-h2-r1,macrodb-h2-r2 --baseline h2 \
     --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 5 --load sweep --max-attempts 1000 --out h2
for i in 1 2 3 4 5; do
  for v in old new; do
    java -Xmx6g -jar tpcc-bench-$v.jar --targets hsqldb,macrodb-hsqldb-r2,h2,macrodb-h2-r2 --baseline none \
         --mix standard --clients 1 --warmup 2s --duration 5s --repetitions 1 --load sweep --max-attempts 1000 \
         --seed $((41 + i)) --out ab/$v-$i
  done
done
