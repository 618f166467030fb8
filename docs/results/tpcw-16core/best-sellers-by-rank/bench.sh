#!/usr/bin/env bash
# Runs a bench jar on the lent machine: the carried JRE, font libraries for the charts, results into $OUT.
set -u
cd "$(dirname "$0")"
mkdir -p /tmp/devrun/fontcache
[ -x /tmp/devrun/jre/bin/java ] || tar xJf jre.tar.xz -C /tmp/devrun
rm -rf /tmp/devrun/fonts && cp -r fonts /tmp/devrun/fonts
export LD_LIBRARY_PATH=$PWD/lib-native FONTCONFIG_FILE=/tmp/devrun/fonts/fonts.conf
nproc
JAR=$1; NAME=$2; LIMIT=$3; shift 3
mkdir -p "$OUT/$NAME"
timeout "$LIMIT" /tmp/devrun/jre/bin/java -Xmx24g -Djava.awt.headless=true -jar "$JAR" --out "$OUT/$NAME" "$@" \
  > "$OUT/$NAME/console.log" 2>&1
echo "exit $?"
grep -v "loading \[" "$OUT/$NAME/console.log" | tail -40
