#!/usr/bin/env bash
# Does a second, busy core slow HSQLDB alone the way a MacroDB slave's applier slows the master at 1 client?
# A: HSQLDB alone, MacroDB r1 and r2, standard mix, 1 client, 3 repetitions, first on an idle machine, then with
# B (HSQLDB alone, 1 client, in a JVM of its own) keeping the other core busy for the whole of A.
set -euo pipefail
cd "$(dirname "$0")/../../../.."
JAR=tpcc-bench/target/tpcc-bench.jar
A="--targets hsqldb,macrodb-hsqldb-r1,macrodb-hsqldb-r2 --baseline hsqldb --mix standard --clients 1 --warmup 2s --duration 5s --repetitions 3 --load sweep --max-attempts 1000"
java -Xmx6g -jar $JAR $A --out docs/results/tpcc-2core/second-core-busy/idle > docs/results/tpcc-2core/second-core-busy/idle.log 2>&1
java -Xmx3g -jar $JAR --targets hsqldb --mix standard --clients 1 --warmup 1s --duration 20m --repetitions 1 --out docs/results/tpcc-2core/second-core-busy/b > docs/results/tpcc-2core/second-core-busy/b.log 2>&1 &
B=$!
sleep 25   # B loaded and running
java -Xmx6g -jar $JAR $A --out docs/results/tpcc-2core/second-core-busy/busy > docs/results/tpcc-2core/second-core-busy/busy.log 2>&1
kill $B || true
