#!/usr/bin/env bash
# The jar before (54e5b29) and after the H2 direct writer, side by side on the lent machine, H2 only.
cd "$(dirname "$0")"
C="--warmup 1s --duration 3s --repetitions 2 --load sweep --max-attempts 1000"
for mix in 80-20 standard; do
  T=$([ $mix = standard ] && echo h2,macrodb-h2-r2 || echo h2,macrodb-h2-r4)
  for jar in old new; do
    ./bench.sh tpcc-$jar.jar $jar-$mix 130 --targets $T --mix $mix --clients 8,16 $C | tail -12
  done
done
