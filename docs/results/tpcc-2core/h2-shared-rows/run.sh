#!/usr/bin/env bash
# H2 slaves with row objects and index entries of their own (the jar of bc37cea, "old") against slaves that store the
# master's row objects and share inserted rows' index entries (aeb092e, "new"), alternated three times on this
# shared 2-core machine, each run comparing H2 alone with MacroDB at replicas 2 and 4 on the same load and seed
# (throughput, and retained heap after the load). Build each commit with
# `mvn -q -B package -DskipTests -pl tpcc-bench -am` and copy its jar here as tpcc-bench-old.jar / tpcc-bench-new.jar.
exec "$(dirname "$0")/../alternate-jars.sh" 3 macrodb-h2-r2,macrodb-h2-r4 1,8 42
