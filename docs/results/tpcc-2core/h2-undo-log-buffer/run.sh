#!/usr/bin/env bash
# Per transaction of K one-row UPDATEs + commit: H2 alone, then MacroDB replicas=1 with the jar before (the undo log
# read through MVMap.cursor, which merges the append buffer) and after (pages and buffer read as they are),
# alternated. tpcc-bench-old.jar / tpcc-bench-new.jar: the tpcc-bench jars of the two commits (each carries MacroDB
# and H2), built at 25c673d (before) and cce2a4a (after) with `mvn -q -B package -DskipTests -pl tpcc-bench -am`.
# Run from this folder.
set -euo pipefail
H2=$(find ~/.m2 -name "h2-2.5.252.jar" | head -1)
javac -cp "$H2" UpdatesPerTransaction.java
for k in 1 10 40; do
  java -cp ".:tpcc-bench-new.jar" UpdatesPerTransaction "jdbc:h2:mem:a" $k
  for v in old new old new; do
    echo -n "$v: "
    java -cp ".:tpcc-bench-$v.jar" UpdatesPerTransaction "jdbc:macrodb:h2:mem:a;macrodb.replicas=1" $k
  done
done
# Then TPC-C, both jars alternated three times, H2 alone against MacroDB at replicas 1 and 2, clients 1 and 8:
"$(dirname "$0")/../alternate-jars.sh" 3 macrodb-h2-r1,macrodb-h2-r2 1,8 42
