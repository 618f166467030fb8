#!/usr/bin/env bash
# CPU time and bytes allocated per one-row UPDATE + commit at replicas=1 (OneRowUpdate), on a table of 2 columns and
# of 20. Each jar is a tpcc-bench jar (it carries MacroDB and H2): tpcc-bench-old.jar built at d862b06 (capture
# triggers), tpcc-bench-new.jar at c772c67 (undo log). Run from this folder.
set -euo pipefail
H2=$(find ~/.m2 -name "h2-2.5.252.jar" | head -1)
javac -cp "$H2" OneRowUpdate.java
for width in 2 20; do
  for v in old new old new; do
    echo "== width $width, $v"
    java -cp ".:tpcc-bench-$v.jar" OneRowUpdate "jdbc:macrodb:h2:mem:a;macrodb.replicas=1" $width | tail -2
  done
done
