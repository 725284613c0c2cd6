#!/usr/bin/env bash
# bench-compare.sh: two builds' benchmarks, alternated round by round on this
# machine, and benchstat's comparison of the two.
#
#   scripts/bench-compare.sh REV PACKAGE PATTERN [ROUNDS]
#
# It builds PACKAGE's test binary at git revision REV ("old") and from the
# work tree ("new"), runs the benchmarks matching PATTERN ROUNDS times
# (default 6), old then new in each round, and prints benchstat's table: each
# benchmark's median with its 95% interval, and the change between the two
# with its p-value (Mann-Whitney U); "~" is a change the rounds cannot tell
# from noise.
#
# Alternating is what makes the two comparable on a shared VM, whose speed
# drifts by tens of percent within minutes (docs/performance.md):
# both builds see the same drift. Nothing else should run meanwhile.
#
# Example:
#   scripts/bench-compare.sh HEAD~1 ./commmodel 'BenchmarkTime$' 8
#
# Needs git, Go and the module proxy (benchstat is fetched, pinned, on first
# use). BENCHTIME sets -test.benchtime (default 150ms).
set -euo pipefail

if (($# < 3)); then
	sed -n '4,6p' "$0" >&2
	exit 2
fi
rev=$1 pkg=$2 pattern=$3 rounds=${4:-6}
benchtime=${BENCHTIME:-150ms}
benchstat_version=v0.0.0-20260908200009-22c9c6c9d4da # golang.org/x/perf

root=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$work/old" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

git -C "$root" worktree add --quiet --detach "$work/old" "$rev"
(cd "$work/old" && go test -c -o "$work/old.test" "$pkg")
(cd "$root" && go test -c -o "$work/new.test" "$pkg")
GOBIN="$work/bin" go install "golang.org/x/perf/cmd/benchstat@$benchstat_version"

dir=$root/${pkg#./} # benchmarks run in their package's directory, as go test runs them
for ((r = 1; r <= rounds; r++)); do
	for v in old new; do
		(cd "$dir" && "$work/$v.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime") >>"$work/$v.txt"
	done
	echo "round $r of $rounds" >&2
done
"$work/bin/benchstat" "old=$work/old.txt" "new=$work/new.txt"
