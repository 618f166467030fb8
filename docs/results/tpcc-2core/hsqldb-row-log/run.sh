#!/usr/bin/env bash
# HSQLDB captured through capture triggers (before: 26f6aa7 with the CPU-per-transaction columns of dd011f0
# cherry-picked) and through its session's row actions (after: 05232a5), one jar after the other, 2026-11-27,
# the shared 2-core machine. Build each commit with `mvn -q -B install -DskipTests` and copy its jars as named here.
set -euo pipefail
for v in after before; do
  java -jar jmh-$v.jar OverheadBenchmark -p engine=hsqldb -f 3 -wi 3 -w 2 -i 5 -r 2 -prof gc > jmh/$v.txt
  java -Xmx8g -jar tpcc-bench-$v.jar --targets hsqldb,macrodb-hsqldb-r1,macrodb-hsqldb-r2 --baseline hsqldb \
       --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 5 --load sweep --max-attempts 1000 \
       --out $v
done
