# big-votes.sh - sourced by the benchmarks on a generated wide file (bench-bootstrap.sh,
# bench-large.sh): sets root and the toolchain, makes a scratch folder $dir removed on exit, and
# defines `big_votes ITEMS`, which writes $dir/votes.csv (scripts/make-big-votes.py).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/env.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
big_votes() { python3 "$root/scripts/make-big-votes.py" "$1" "$dir/votes.csv"; }
