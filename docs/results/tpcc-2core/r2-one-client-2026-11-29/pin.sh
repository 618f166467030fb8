#!/usr/bin/env bash
mkdir -p /tmp/r2-one-client
# $1 target $2 name: client thread pinned to CPU 0, every other thread of the JVM to CPU 1; client CPU/tx and switches
cd "$(dirname "$0")/../../../.."  # the repository root
java -Xmx6g ${JX:-} -jar tpcc-bench/target/tpcc-bench.jar --targets $1 --mix standard --clients 1 --warmup 10s --duration 15s --repetitions 1 --seed 42 --out /tmp/r2-one-client/pin-$2 > /tmp/r2-one-client/pin-$2.log 2>&1 &
jp=$!
for i in $(seq 1 240); do
  grep -q "\[1/1\].*warm-up" /tmp/r2-one-client/pin-$2.log 2>/dev/null || { sleep 0.25; continue; }
  pid=$(pgrep -f "out /tmp/r2-one-client/pin-$2" | head -1)
  ct=$(for t in /proc/$pid/task/*; do grep -q "tpcc-client" $t/comm 2>/dev/null && echo $t; done | head -1)
  [ -n "$ct" ] && break; sleep 0.25
done
sleep 2
for t in /proc/$pid/task/*; do tid=$(basename $t); if [ "$t" = "$ct" ]; then taskset -p -c 0 $tid >/dev/null; else taskset -p -c 1 $tid >/dev/null; fi; done
# threads made later (none expected in the window) stay unpinned
sleep 12; a=$(grep -E '^nr_involuntary' $ct/sched | awk '{print $3}'); sleep 10; b=$(grep -E '^nr_involuntary' $ct/sched | awk '{print $3}')
wait $jp
awk -F, '$7=="TOTAL"{printf "'$2' %8.0f tx/s cpu %6.1f us/tx",$12,$13}' /tmp/r2-one-client/pin-$2/trials.csv; echo "  involuntary switches in 10 s: $((b-a))"
