# H2's 80-20 scaling, then TPC-W as in the paper's Figure 8 (3 H2 replicas, 128 browsers, no think time).
. .devrun/env.sh
BUDGET=565
C="--warmup 1s --duration 3s --repetitions 3 --load sweep --max-attempts 1000"
TAILN=30 bench h2-80-20 300 tpcc-bench.jar --targets h2,macrodb-h2-r4,macrodb-h2-r8 --baseline h2 --mix 80-20 --clients 1,8,16 $C
TAILN=30 bench tpcw 600 tpcw-bench.jar --targets h2,macrodb-h2-r3 --baseline h2 --clients 128 --mix browsing,shopping --items 10000 --db-browsers 2 --warmup 3s --duration 8s --repetitions 3 --max-attempts 1000
pack callC
