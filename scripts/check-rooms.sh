#!/usr/bin/env bash
# check-rooms.sh - no room of the app imports another room: a file under src/rooms/<a>/ may name
# the shell's modules (crate::state, crate::data, crate::model_jobs, crate::plan_jobs, ...) and its
# own room's files, never `rooms::<b>` for another room b, nor climb out with `super::super`.
# What two rooms share lives in a shell module (src/*.rs), so each room reads on its own. Then
# scripts/check-circles.py: no import circle between the files of any crate.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
for dir in src/rooms/*/; do
  room=$(basename "$dir")
  # Every `rooms::X` path in the room's files, X not the room itself.
  while IFS= read -r hit; do
    echo "room '$room' reaches into another room: $hit" >&2
    bad=1
  done < <(grep -rnE 'rooms::[a-z_]+|super::super' "$dir" | grep -vE "rooms::$room\b" || true)
done
[ $bad = 0 ] && echo "rooms: none imports another ($(ls -d src/rooms/*/ | wc -l) rooms checked)"
# And no import circle between the files of any crate (scripts/check-circles.py).
python3 scripts/check-circles.py || bad=1
exit $bad
