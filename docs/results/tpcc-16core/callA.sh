# HSQLDB, the read-mix targets: HSQLDB alone (both modes) vs MacroDB with 4 and 8 replicas.
. .devrun/env.sh
nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz" ; free -g | head -2; $JAVA -version 2>&1
TAILN=8 bench smoke 90 tpcc-bench.jar --scale small --targets hsqldb,macrodb-hsqldb-r2 --clients 2 --warmup 1s --duration 1s --mix 80-20
ls /tmp/out/smoke
C="--clients 1,8,16 --warmup 1s --duration 3s --repetitions 3 --load sweep --max-attempts 1000 --baseline hsqldb"
T="--targets hsqldb,hsqldb-mvcc,macrodb-hsqldb-r4,macrodb-hsqldb-r8"
TAILN=40 bench hsqldb-100-0 270 tpcc-bench.jar $T --mix 100-0 $C
TAILN=40 bench hsqldb-80-20 300 tpcc-bench.jar $T --mix 80-20 $C
pack callA
