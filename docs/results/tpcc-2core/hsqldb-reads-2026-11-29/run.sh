#!/usr/bin/env bash
# The read-only mix (100-0) and 80-20 at 8 clients over HSQLDB's default (LOCKS) mode with 2 to 5 replicas, against
# HSQLDB alone, 3 repetitions: how many replicas this 2-core machine rewards. Run from the repository root after
# `mvn -q -B install -DskipTests`.
set -euo pipefail
java -Xmx12g -jar tpcc-bench/target/tpcc-bench.jar \
     --targets hsqldb,macrodb-hsqldb-r2,macrodb-hsqldb-r3,macrodb-hsqldb-r4,macrodb-hsqldb-r5 --baseline hsqldb \
     --mix 100-0,80-20 --clients 8 --warmup 2s --duration 5s --repetitions 3 --load sweep --max-attempts 1000 \
     --seed 42 --out docs/results/tpcc-2core/hsqldb-reads-2026-11-29
