#!/usr/bin/env bash
# Old and new tpcc-bench jars one after the other, 3 times: H2 with 2 replicas, 8 clients, standard mix.
# old.jar: commit 4c09cfe (the applier converted the master's stored arrays again); new.jar: the next commit.
for r in 1 2 3; do for v in old new; do
  java -Xmx4g -jar $v.jar --targets macrodb-h2-r2 --clients 8 --mix standard --warmup 3s --duration 8s --out $v-$r
done; done
