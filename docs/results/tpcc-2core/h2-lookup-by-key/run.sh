#!/usr/bin/env bash
# H2 slaves that find an updated or deleted row by its primary key (the jar of aeb092e, "old") against slaves that
# find it by the master's key for it (the commit that added this, "new"), alternated three times on this shared
# 2-core machine, each run comparing H2 alone with MacroDB at replicas 2 and 4 on the same load and seed, with the
# apply cost `a` beside. Build each commit with `mvn -q -B package -DskipTests -pl tpcc-bench -am` and copy its jar
# as tpcc-bench-old.jar / tpcc-bench-new.jar.
set -euo pipefail
for i in 1 2 3; do
  for v in old new; do
    java -Xmx6g -jar tpcc-bench-$v.jar --targets h2,macrodb-h2-r2,macrodb-h2-r4 --baseline h2 --mix standard \
         --clients 1,8 --warmup 2s --duration 5s --repetitions 1 --load sweep --max-attempts 1000 \
         --seed $((41 + i)) --out $v-$i
  done
done
