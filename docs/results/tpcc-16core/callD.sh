# The applier woken only when parked: TPC-C H2 standard mix, replicas 1 and 2 against H2 alone, jar before vs after.
. .devrun/env.sh
nproc
timeout 30 $JAVA -cp .devrun UnparkCost
C="--mix standard --clients 1,8 --warmup 2s --duration 5s --repetitions 2 --load sweep --max-attempts 1000"
T="--targets h2,macrodb-h2-r1,macrodb-h2-r2"
TAILN=12 bench before1 200 tpcc-before.jar $T $C
TAILN=12 bench after1 200 tpcc-after.jar $T $C
pack callD
