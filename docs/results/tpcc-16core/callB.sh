# Standard mix on 16 cores (MacroDB's cost where 92% of transactions update), then H2's 100-0 scaling.
. .devrun/env.sh
BUDGET=565
C="--warmup 1s --duration 3s --repetitions 3 --load sweep --max-attempts 1000"
TAILN=40 bench standard 290 tpcc-bench.jar --targets h2,macrodb-h2-r1,macrodb-h2-r2,hsqldb,macrodb-hsqldb-r1,macrodb-hsqldb-r2 --baseline h2 --mix standard --clients 1,8 $C
TAILN=30 bench h2-100-0 600 tpcc-bench.jar --targets h2,macrodb-h2-r4,macrodb-h2-r8 --baseline h2 --mix 100-0 --clients 1,8,16 $C
pack callB
