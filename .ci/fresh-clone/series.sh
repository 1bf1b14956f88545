#!/usr/bin/env bash
# Issue 23's check: RUNS fresh-clone CI runs of COMMIT, LANES at a time, beside two CPU burners for the
# whole series. Needs root (unshare -n) and the package index (each run's setup installs from scratch).
#   COMMIT=$(git rev-parse HEAD) SERIES=s1 LANES=5 RUNS=10 bash .ci/fresh-clone/series.sh
# then: NAME=ci-fresh-clone-runs-XXXXXXX .venv/bin/python .ci/fresh-clone/record.py $WORK/s1 COMMIT
set -u
here=$(cd "$(dirname "$0")" && pwd)
export REPO=${REPO:-$(cd "$here/../.." && pwd)} WORK=${WORK:-/tmp/fresh-clone-series} COMMIT SERIES
mkdir -p "$WORK/$SERIES"
python3 -c 'while 1: pass' & b1=$!
python3 -c 'while 1: pass' & b2=$!
echo "$b1 $b2" > "$WORK/$SERIES/burners"
echo "series start $(date -u +%FT%TZ) commit=$COMMIT lanes=$LANES" >> "$WORK/$SERIES/log"
seq -w 1 "${RUNS:-10}" | xargs -P "${LANES:-5}" -I{} "$here/lane.sh" {}
# xargs gives up at once when a run is stopped by a signal; the runs still going keep their burners.
while pgrep -f "$here/lane.sh" >/dev/null; do sleep 10; done
echo "series end $(date -u +%FT%TZ)" >> "$WORK/$SERIES/log"
kill $b1 $b2
