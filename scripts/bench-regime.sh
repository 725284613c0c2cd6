#!/usr/bin/env bash
# bench-regime.sh: the 64 x 1024 AllReduce regime map, commlab's against its
# NumPy peer, measured in one run on one machine.
#
#   scripts/bench-regime.sh [PEER]
#
# PEER is the peer, peer_regime_numpy.py from a checkout of the project's
# benchmark peers (they live outside this repository); without the argument
# it is $COMMLAB_PEERS/peer_regime_numpy.py. The peer computes the map of
# commmodel's BenchmarkRegimeMap (the four AllReduce algorithms of the
# article at P = 1..64 and 1024 sizes from 1 B to 4 GiB, alpha 2 us and
# 350 GB/s) in vectorized NumPy, and prints the median of 31 runs and the
# sum of the winners' indices.
#
# Each of ROUNDS rounds (default 5) runs the Go benchmark (go test -bench,
# BENCHTIME each of its two forms, default 1s: "new" allocates the map,
# NewRegimeGrid, "reuse" recomputes it in place, RegimeGridInto) and then
# the peer, so that both see the same load. Every round must report the
# same winners' sum from Go and the peer, or the script fails: the two
# computed different maps. It prints each round's times and ratios (peer /
# Go), then each ratio's median, least and largest over the rounds.
#
# The peer needs NumPy: Debian's python3-numpy, run with Debian's own
# /usr/bin/python3 (PYTHON overrides it), with OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE unset for it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
	export PATH="/usr/local/go/bin:$PATH"
fi

peer=${1:-${COMMLAB_PEERS:+$COMMLAB_PEERS/peer_regime_numpy.py}}
if [ -z "$peer" ]; then
	echo "usage: scripts/bench-regime.sh PEER (or set COMMLAB_PEERS to the folder of peer_regime_numpy.py)" >&2
	exit 2
fi
if [ ! -r "$peer" ]; then
	echo "bench-regime: cannot read the peer $peer" >&2
	exit 2
fi
python=${PYTHON:-/usr/bin/python3}
if ! env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$python" -c 'import numpy' 2>/dev/null; then
	echo "bench-regime: $python has no numpy (Debian: apt-get install python3-numpy)" >&2
	exit 2
fi
rounds=${ROUNDS:-5}
benchtime=${BENCHTIME:-1s}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/commmodel.test" ./commmodel

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %11s %8s %9s %9s\n' round "new (ms)" "reuse (ms)" "NumPy (ms)" sum "NumPy/new" "NumPy/reuse"
summary=$tmp/ratios
for r in $(seq 1 "$rounds"); do
	# BenchmarkRegimeMap/new-2  N  T ns/op  S winners-sum  B B/op  A allocs/op
	lines=$("$tmp/commmodel.test" -test.run '^$' -test.bench '^BenchmarkRegimeMap$' -test.benchtime "$benchtime" -test.benchmem | grep '^BenchmarkRegimeMap/')
	field() { # field FORM UNIT: the number before UNIT on FORM's line
		grep "^BenchmarkRegimeMap/$1-" <<<"$lines" | awk -v u="$2" '{for (i = 1; i < NF; i++) if ($(i+1) == u) print $i}'
	}
	newms=$(field new ns/op | awk '{printf "%.4f", $1 / 1e6}')
	reusems=$(field reuse ns/op | awk '{printf "%.4f", $1 / 1e6}')
	# numpy regime map 64x1024: median M ms (min m); winners checksum S
	out=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$python" "$peer")
	npms=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' <<<"$out")
	npsum=$(sed -n 's/.*checksum \([0-9]*\).*/\1/p' <<<"$out")
	if [ -z "$newms" ] || [ -z "$reusems" ] || [ -z "$npms" ]; then
		echo "bench-regime: could not read the times from:" >&2
		echo "$lines" >&2
		echo "$out" >&2
		exit 1
	fi
	for form in new reuse; do
		if [ "$(field $form winners-sum)" != "$npsum" ]; then
			echo "bench-regime: round $r: Go's $form map has winners sum $(field $form winners-sum), the peer's $npsum: not the same map" >&2
			exit 1
		fi
	done
	rnew=$(awk -v a="$npms" -v b="$newms" 'BEGIN { printf "%.2f", a / b }')
	rreuse=$(awk -v a="$npms" -v b="$reusems" 'BEGIN { printf "%.2f", a / b }')
	echo "$rnew $rreuse" >>"$summary"
	printf '%-6s %10s %10s %11s %8s %8sx %10sx\n' "$r" "$newms" "$reusems" "$npms" "$npsum" "$rnew" "$rreuse"
done
for col in 1 2; do
	name=$([ $col = 1 ] && echo new || echo reuse)
	cut -d' ' -f$col "$summary" | sort -g | awk -v name="$name" '{ v[NR] = $1 } END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "NumPy / Go (%s): median %.2fx, least %.2fx, largest %.2fx over %d rounds\n", name, m, v[1], v[NR], NR
	}'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
