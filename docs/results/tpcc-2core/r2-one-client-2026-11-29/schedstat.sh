#!/usr/bin/env bash
mkdir -p /tmp/r2-one-client
# $1 target: per-thread schedstat deltas (run ms, runqueue wait ms, slices) over 10 s of the measured window
cd "$(dirname "$0")/../../../.."  # the repository root
java -Xmx6g ${JX:-} -jar tpcc-bench/target/tpcc-bench.jar --targets $1 --mix standard --clients ${CL:-1} --warmup 8s --duration 12s --repetitions 1 --seed 42 --out /tmp/r2-one-client/ss-$1 > /tmp/r2-one-client/ss-$1.log 2>&1 &
jpid=$!
for i in $(seq 1 80); do
  pid=$(pgrep -f "targets $1" | head -1)
  ct=$(for t in /proc/$pid/task/*; do grep -q "tpcc-client" $t/comm 2>/dev/null && echo $t; done | head -1)
  [ -n "$ct" ] && break; sleep 0.5
done
sleep 4
snap() { for t in /proc/$pid/task/*; do echo "$(cat $t/comm | tr ' ' '_') $(cat $t/schedstat)"; done | sort; }
snap > /tmp/r2-one-client/ss0; sleep 10; snap > /tmp/r2-one-client/ss1
python3 - <<'PY'
import collections
def rd(f):
    d=collections.defaultdict(lambda:[0,0,0])
    for l in open(f):
        n,a,b,c=l.split()
        k=n.rstrip('0123456789#').rstrip('-_') if not n.startswith('tpcc-client') else n
        v=d[k]; v[0]+=int(a); v[1]+=int(b); v[2]+=int(c)
    return d
a=rd('/tmp/r2-one-client/ss0'); b=rd('/tmp/r2-one-client/ss1')
tot=0
for k in sorted(b):
    x=[b[k][i]-a.get(k,[0,0,0])[i] for i in range(3)]
    if x[0]>5e6: print('%-28s run %7.0f ms  waited %6.0f ms  slices %6d'%(k,x[0]/1e6,x[1]/1e6,x[2]))
    tot+=x[0]
print('all threads run %.0f ms of 20000'%(tot/1e6))
PY
wait $jpid
grep "rep 1:" /tmp/r2-one-client/ss-$1.log | grep -v loading
