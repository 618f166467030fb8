#!/usr/bin/env bash
# --load once (2026-11-30, withdrawn the same day; see README "Identical targets, and one load per target for a
# whole run"): every target loaded once and held, the targets taking turns window by window. The option existed in
# commits 9f3c99c to 0bc87d6; build 0bc87d6's jar to run this (`git checkout 0bc87d6 && mvn -q -B install
# -DskipTests`), from the repository root. Engines alone against MacroDB at replicas 1 and 2 (6 repetitions,
# 2 s + 5 s), each engine alone against replicas=1 (20 repetitions, 1 s + 4 s), HSQLDB's read-heavy mixes, and the
# identical-target controls (three bare H2 databases, the same URL, under --load once and --load sweep, with and
# without a fixed heap; the sweep controls run on any jar).
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
java -Xmx10g -jar "$jar" --targets hsqldb,macrodb-hsqldb-r3,macrodb-hsqldb-r4 --baseline hsqldb --mix 100-0,80-20 \
     --clients 8 --warmup 2s --duration 5s --repetitions 6 --load once --max-attempts 1000 --seed 42 \
     --out "$out/hsqldb-reads"
identical='h2,h2b=jdbc:h2:mem:{db};DB_CLOSE_DELAY=-1,h2c=jdbc:h2:mem:{db};DB_CLOSE_DELAY=-1'
for load in once sweep; do
  java -Xmx8g -jar "$jar" --targets "$identical" --mix standard --clients 1 --warmup 1s --duration 4s \
       --repetitions 4 --load $load --max-attempts 1000 --seed 42 --out "$out/ident-$load"
  java -Xms8g -Xmx8g -jar "$jar" --targets "$identical" --mix standard --clients 1 --warmup 1s --duration 4s \
       --repetitions 4 --load $load --max-attempts 1000 --seed 42 --out "$out/identxms-$load"
done
