#!/usr/bin/env bash
# Runs tpcc-bench-old.jar and tpcc-bench-new.jar (in the current directory) alternately, PAIRS times, each run comparing
# the engine alone (BASELINE, h2 unless given) with the MacroDB targets given on the same load and seed (standard mix,
# 2 s warm-up, 5 s measured, --load sweep), into old-<i>/ and new-<i>/.
# Usage: alternate-jars.sh PAIRS TARGETS CLIENTS FIRST_SEED [BASELINE]
set -euo pipefail
pairs=$1 targets=$2 clients=$3 seed=$4 baseline=${5:-h2}
for i in $(seq 1 "$pairs"); do
  for v in old new; do
    java -Xmx6g -jar tpcc-bench-$v.jar --targets "$baseline,$targets" --baseline "$baseline" --mix standard \
         --clients "$clients" --warmup 2s --duration 5s --repetitions 1 --load sweep --max-attempts 1000 \
         --seed $((seed + i - 1)) --out $v-$i
  done
done
