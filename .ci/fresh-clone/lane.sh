#!/usr/bin/env bash
# One fresh-clone CI run, as CI makes it: a clone of $COMMIT from $REPO, a new empty HOME, the setup
# outside the namespace (it needs the package index), then `CI=true bash .ci/run` under /usr/bin/time -v
# inside a network namespace that has only loopback. Writes $WORK/$SERIES/ID/{times,setup.log,run.log,time.txt}.
set -u
id=$1
d=$WORK/$SERIES/$id
rm -rf "$d"; mkdir -p "$d/home"
git clone -q "$REPO" "$d/p" && git -C "$d/p" checkout -q "$COMMIT"
cp -r "$REPO/../shared" "$d/shared" 2>/dev/null && chmod -R a-w "$d/shared"
cd "$d/p" || exit 0
start=$(date +%s)
echo "setup start $(date -u +%FT%TZ)" > "$d/times"
HOME="$d/home" bash .ci/setup --browser --ray > "$d/setup.log" 2>&1
echo "setup rc=$? $(date -u +%FT%TZ)" >> "$d/times"
echo "run start $(date -u +%FT%TZ)" >> "$d/times"
HOME="$d/home" CI=true /usr/bin/time -v -o "$d/time.txt" \
  unshare -n bash -c 'ip link set lo up && exec bash .ci/run' < /dev/null > "$d/run.log" 2>&1
rc=$?
echo "run rc=$rc $(date -u +%FT%TZ) wall=$(( $(date +%s) - start ))s" >> "$d/times"
# Keep the disk: the virtualenvs and the tables go once the run is over; the logs stay.
rm -rf "$d/p/.venv" "$d/p/.venv-ray" "$d/home/.cache" "$d/home/.local/share/rummy-vision/tables"
exit 0
