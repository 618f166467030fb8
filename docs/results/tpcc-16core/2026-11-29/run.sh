#!/usr/bin/env bash
# 2026-11-29, on the lent 16-core machine, one call: issue #4's replicas=1 and replicas=2 aims on today's code
# (standard mix, 1 and 8 clients, H2 and HSQLDB), then HSQLDB's read-mostly mixes with 4 replicas at 8 clients.
# Run from the repository root with .devrun carried (docs/results/tpcc-16core/env.sh says what goes there).
. docs/results/tpcc-16core/env.sh
BUDGET=${BUDGET:-560}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(free -g | awk '/Mem/{print $2}') GB"
$JAVA -version 2>&1 | head -1
TAILN=45 bench standard 420 tpcc-bench.jar --targets h2,macrodb-h2-r1,macrodb-h2-r2,hsqldb,macrodb-hsqldb-r1,macrodb-hsqldb-r2 \
  --baseline h2 --mix standard --clients 1,8 --warmup 2s --duration 4s --repetitions 3 --load sweep --max-attempts 1000
TAILN=25 bench hsqldb-reads 150 tpcc-bench.jar --targets hsqldb,macrodb-hsqldb-r4 --baseline hsqldb --mix 100-0,80-20 \
  --clients 8 --warmup 2s --duration 3s --repetitions 2 --load sweep --max-attempts 1000
pack run
