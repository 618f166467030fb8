#!/usr/bin/env bash
# Runs RollbackBesideDdl against the jars built from this checkout (mvn -q -B install -DskipTests first), for
# SECONDS (default 120); a second argument is a URL pattern, e.g. 'jdbc:h2:mem:alone%d' for H2 alone. For the jar
# before the fix, check out its commit (73a2db5), build, and run this script from there.
set -euo pipefail
cd "$(dirname "$0")"
root=../../..
out=$(mktemp -d)
(cd "$root" && mvn -q -B dependency:build-classpath -pl macrodb-driver -Dmdep.outputFile="$out/classpath.txt")
cp="$root/macrodb-driver/target/macrodb-driver-0.1.0-SNAPSHOT.jar:$(cat "$out/classpath.txt")"
javac -cp "$cp" -d "$out" RollbackBesideDdl.java
java -Xmx2g -cp "$out:$cp" RollbackBesideDdl "${1:-120}" ${2:+"$2"} | grep -v '^\s*at '
