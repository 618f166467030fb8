#!/usr/bin/env bash
# H2 captured with row triggers (the jar of d862b06, "old") against H2 captured from its undo log (c772c67, "new"),
# alternated five times on this shared 2-core machine, each run comparing H2 alone with MacroDB at replicas 1 and 2
# on the same load and seed. Build each commit with `mvn -q -B package -DskipTests -pl tpcc-bench -am` and copy its
# jar as tpcc-bench-old.jar / tpcc-bench-new.jar.
set -euo pipefail
for i in 1 2 3 4 5; do
  for v in old new; do
    java -Xmx6g -jar tpcc-bench-$v.jar --targets h2,macrodb-h2-r1,macrodb-h2-r2 --baseline h2 --mix standard \
         --clients 1,8 --warmup 2s --duration 5s --repetitions 1 --load sweep --max-attempts 1000 \
         --seed $((41 + i)) --out $v-$i
  done
done
