#!/usr/bin/env bash
# Each engine alone against MacroDB at replicas 1 and 2, standard mix, clients 1 and 8, 3 repetitions on one load per
# repetition (--load sweep): throughput, CPU and allocation per transaction as ratios to the engine alone
# (summary.csv: ratio_*, cpu_ratio_*, alloc_ratio_*). Run from the repository root after `mvn -q -B install -DskipTests`.
set -euo pipefail
out=docs/results/tpcc-2core/allocation-2026-11-29
for engine in h2 hsqldb; do
  java -Xmx8g -jar tpcc-bench/target/tpcc-bench.jar --targets "$engine,macrodb-$engine-r1,macrodb-$engine-r2" \
       --baseline "$engine" --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 3 --load sweep \
       --max-attempts 1000 --seed 42 --out "$out/$engine"
done
