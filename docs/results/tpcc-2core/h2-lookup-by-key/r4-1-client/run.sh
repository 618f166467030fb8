#!/usr/bin/env bash
# Five more alternated pairs of the same two jars at replicas=4 and 1 client only (the three pairs of ../run.sh
# left this row in doubt: its ranges did not overlap, the new jar lower). Jars as in ../run.sh.
set -euo pipefail
for i in 1 2 3 4 5; do
  for v in old new; do
    java -Xmx6g -jar tpcc-bench-$v.jar --targets h2,macrodb-h2-r4 --baseline h2 --mix standard \
         --clients 1 --warmup 2s --duration 5s --repetitions 1 --load sweep --max-attempts 1000 \
         --seed $((50 + i)) --out $v-$i
  done
done
