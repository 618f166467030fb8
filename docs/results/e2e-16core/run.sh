#!/usr/bin/env bash
# Runs MacroDB's concurrency-heavy end-to-end tests on the lent machine (16 cores): other timings than 2 cores.
set -u
cd "$(dirname "$0")"
nproc; free -g | head -2
if command -v java >/dev/null 2>&1; then JAVA=java; else tar xJf jre.tar.xz; JAVA=./jre/bin/java; fi
$JAVA -version 2>&1 | head -1
CP=cp/runtime:cp/driver:cp/e2e:$(ls lib/*.jar | grep -v console | tr '\n' ':')
SEEDS=${SEEDS:-40}
shift 0
CLASSES=""
for c in "$@"; do CLASSES="$CLASSES --select-class io.macrodb.e2e.$c"; done
timeout ${LIMIT:-540} $JAVA -Xmx16g -Dmacrodb.fuzz.seeds=$SEEDS -jar lib/junit-platform-console-standalone-1.11.4.jar \
  execute --class-path "$CP" $CLASSES --details=summary --details-theme=ascii --disable-banner \
  --reports-dir "${OUT:-/tmp}/reports" 2>&1 | tail -150
echo "exit ${PIPESTATUS[0]}"
