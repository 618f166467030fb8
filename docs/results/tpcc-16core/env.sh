# Sourced by the device scripts: a JRE (carried, jlinked from this machine's OpenJDK 17), font libraries for the
# charts, and a helper that runs one guarded benchmark invocation into /tmp/out/<name>.
set -u
START=$(date +%s)
mkdir -p /tmp/devrun /tmp/out
if [ ! -x /tmp/devrun/jre/bin/java ]; then tar xJf .devrun/jre.tar.xz -C /tmp/devrun; fi
rm -rf /tmp/devrun/fonts && cp -r .devrun/fonts /tmp/devrun/fonts && mkdir -p /tmp/devrun/fontcache
export LD_LIBRARY_PATH=$PWD/.devrun/lib
export FONTCONFIG_FILE=/tmp/devrun/fonts/fonts.conf
JAVA=/tmp/devrun/jre/bin/java
JOPTS="-Xmx24g -Djava.awt.headless=true"
# bench NAME SECONDS JAR ARGS...: runs the jar with ARGS, killed after SECONDS, console to /tmp/out/NAME/console.log
bench() {
  local name=$1 secs=$2 jar=$3; shift 3
  local left=$(( ${BUDGET:-570} - ($(date +%s) - START) ))
  [ "$secs" -gt "$left" ] && secs=$left
  if [ "$secs" -lt 30 ]; then echo "SKIP $name: ${left}s left"; return; fi
  mkdir -p /tmp/out/$name
  echo "=== $name (limit ${secs}s) at $(( $(date +%s) - START ))s"
  timeout $secs $JAVA $JOPTS -jar .devrun/$jar --out /tmp/out/$name "$@" > /tmp/out/$name/console.log 2>&1
  echo "=== $name exit $? at $(( $(date +%s) - START ))s"
  grep -v "loading \[" /tmp/out/$name/console.log | tail -${TAILN:-15}
}
pack() { tar czf $OUT/$1.tgz -C /tmp/out . ; ls -la $OUT; }
