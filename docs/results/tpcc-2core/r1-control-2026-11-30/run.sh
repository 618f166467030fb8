#!/usr/bin/env bash
# MacroDB over H2 at replicas=1 against H2 alone, with an identical second H2 target as a control for what the
# machine's spread alone gives, 12 repetitions with a fresh load per target, mix and repetition, fixed heap
# (2026-11-30). Run from the repository root after `mvn -q -B install -DskipTests` (about 17 minutes on 2 cores).
set -euo pipefail
out=docs/results/tpcc-2core/r1-control-2026-11-30
jar=${JAR:-tpcc-bench/target/tpcc-bench.jar}
java -Xms8g -Xmx8g -jar "$jar" --targets "h2,h2-again=jdbc:h2:mem:{db};DB_CLOSE_DELAY=-1,macrodb-h2-r1" \
     --baseline h2 --mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 12 --load sweep \
     --max-attempts 1000 --seed 42 --out "$out" | tee "$out/tpcc.log"
