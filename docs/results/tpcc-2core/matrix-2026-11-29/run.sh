#!/usr/bin/env bash
# Issue #4's full TPC-C matrix on the code of 2026-11-29: each engine alone (HSQLDB in both modes) against MacroDB at
# replicas 1, 2 and 3, mixes standard, 50-50, 80-20 and 100-0, clients 1, 2, 4 and 8, 3 repetitions, one load per
# target, mix and repetition. Run from the repository root after `mvn -q -B install -DskipTests` (about 70 minutes on
# 2 cores).
set -euo pipefail
out=docs/results/tpcc-2core/matrix-2026-11-29
jar=${JAR:-tpcc-bench/target/tpcc-bench.jar}
java -Xmx12g -jar "$jar" --targets h2,macrodb-h2-r1,macrodb-h2-r2,macrodb-h2-r3 \
     --baseline h2 --mix standard,50-50,80-20,100-0 --clients 1,2,4,8 --warmup 2s --duration 5s \
     --repetitions 3 --load sweep --max-attempts 1000 --seed 42 --out "$out/h2"
java -Xmx12g -jar "$jar" --targets hsqldb,hsqldb-mvcc,macrodb-hsqldb-r1,macrodb-hsqldb-r2,macrodb-hsqldb-r3 \
     --baseline hsqldb --mix standard,50-50,80-20,100-0 --clients 1,2,4,8 --warmup 2s --duration 5s \
     --repetitions 3 --load sweep --max-attempts 1000 --seed 42 --out "$out/hsqldb"
