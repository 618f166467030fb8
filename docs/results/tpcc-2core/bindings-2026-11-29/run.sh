#!/usr/bin/env bash
# The jar of f0ed5d0 ("old") against the one of this change ("new"), alternated twice per engine, each run comparing the
# engine alone with MacroDB at replicas 1 and 2 (clients 1 and 8, standard mix): allocation, CPU and throughput per
# transaction as ratios to the engine alone (summary.csv: alloc_ratio_*, cpu_ratio_*, ratio_*). Put the two jars in
# this folder as tpcc-bench-old.jar and tpcc-bench-new.jar, then run it from here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for engine in h2 hsqldb; do
  (cd "$here/$engine" && ln -sf ../tpcc-bench-old.jar ../tpcc-bench-new.jar . \
     && bash "$here/../alternate-jars.sh" 2 "macrodb-$engine-r1,macrodb-$engine-r2" 1,8 42 "$engine" > run.log 2>&1 \
     && rm -f tpcc-bench-old.jar tpcc-bench-new.jar)
done
