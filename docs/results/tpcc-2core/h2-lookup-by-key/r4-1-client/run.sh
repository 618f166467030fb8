#!/usr/bin/env bash
# Five more alternated pairs of the same two jars as ../run.sh, at replicas=4 and 1 client only (the three pairs of
# ../run.sh left this row in doubt: its ranges did not overlap, the new jar lower). Copy the jars here too.
exec "$(dirname "$0")/../../alternate-jars.sh" 5 macrodb-h2-r4 1 51
