#!/usr/bin/env bash
# H2 slaves that find an updated or deleted row by its primary key (the jar of aeb092e, "old") against slaves that
# find it by the master's key for it (1228e21, "new"), alternated three times on this shared 2-core machine, each run
# comparing H2 alone with MacroDB at replicas 2 and 4 on the same load and seed, with the apply cost `a` beside.
# Build each commit with `mvn -q -B package -DskipTests -pl tpcc-bench -am` and copy its jar here as
# tpcc-bench-old.jar / tpcc-bench-new.jar.
exec "$(dirname "$0")/../alternate-jars.sh" 3 macrodb-h2-r2,macrodb-h2-r4 1,8 42
