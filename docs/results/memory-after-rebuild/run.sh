#!/usr/bin/env bash
# Retained heap of TPC-C (1 warehouse) through MacroDB over H2 (then HSQLDB), 4 replicas: after load, then after each slave is
# rebuilt. Run from the repository root after `mvn -q -B install -DskipTests`; OLD_JAR, if set, is an older
# tpcc-bench.jar to measure the same way (result.txt: old = commit 4c09cfe, new = the commit that added this).
set -e
dir=$(dirname "$0")
out=$(mktemp -d)
for jar in ${OLD_JAR:+"$OLD_JAR"} tpcc-bench/target/tpcc-bench.jar; do
  javac -cp "$jar" -d "$out" "$dir/RebuildMemory.java"
  echo "== $jar"
  java -Xmx4g -cp "$out:$jar" RebuildMemory 2>&1 | grep -E "^after|identical"
done
# HSQLDB, new jar only:
java -Xmx4g -cp "$out:tpcc-bench/target/tpcc-bench.jar" RebuildMemory hsqldb 2>&1 | grep -E "^after|identical"
