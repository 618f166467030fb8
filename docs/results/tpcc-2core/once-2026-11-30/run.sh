#!/usr/bin/env bash
# --load once (2026-11-30): every target loaded once and held, the targets taking turns window by window. First each
# engine alone against MacroDB at replicas 1 and 2 (6 repetitions, 2 s + 5 s), then each engine alone against
# replicas=1 only (20 repetitions, 1 s + 4 s), standard mix, clients 1 and 8, seed 42. Run from the repository root
# after `mvn -q -B install -DskipTests` (about 25 minutes on 2 cores).
set -euo pipefail
out=docs/results/tpcc-2core/once-2026-11-30
jar=${JAR:-tpcc-bench/target/tpcc-bench.jar}
for engine in h2 hsqldb; do
  java -Xmx8g -jar "$jar" --targets $engine,macrodb-$engine-r1,macrodb-$engine-r2 --baseline $engine \
       --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 6 --load once --max-attempts 1000 \
       --seed 42 --out "$out/$engine-r1-r2" | tee "$out/$engine-r1-r2.log"
done
for engine in h2 hsqldb; do
  java -Xmx8g -jar "$jar" --targets $engine,macrodb-$engine-r1 --baseline $engine \
       --mix standard --clients 1,8 --warmup 1s --duration 4s --repetitions 20 --load once --max-attempts 1000 \
       --seed 42 --out "$out/$engine-r1-20" | tee "$out/$engine-r1-20.log"
done
