#!/usr/bin/env bash
# bench-report.sh: the table of docs/performance.md, "Measured", from the
# benchmarks of what a user waits for, run on this machine.
#
#   scripts/bench-report.sh [-w] PEER
#
# PEER is the regime map's NumPy peer, peer_regime_numpy.py, as for
# scripts/bench-regime.sh, which this script runs for that row. It prints
# the table on stdout; with -w it also writes it into docs/performance.md
# between the lines "<!-- bench-report: begin -->" and
# "<!-- bench-report: end -->" (through a temporary file and a rename).
#
# Every benchmark runs on one core (-cpu 1) COUNT times (default 5); a row
# gives the median and the range over the runs, the allocations per call,
# the target and whether the median meets it. "one evaluation" is the
# slowest median of BenchmarkTime's forms (every algorithm of commmodel and
# NCCL on one link) and the most allocations of any; its target is the
# Targets table's. The regime map's row
# is bench-regime.sh's median ratio over ROUNDS rounds (default 5).
# BENCHTIME sets -test.benchtime of the commlab benchmarks (default 1s).
#
# It needs Go, and NumPy for the peer (Debian's python3-numpy).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
	export PATH="/usr/local/go/bin:$PATH"
fi

write=false
if [ "${1:-}" = -w ]; then
	write=true
	shift
fi
if [ $# -ne 1 ]; then
	sed -n '5p' "$0" >&2
	exit 2
fi
peer=$1
count=${COUNT:-5}
benchtime=${BENCHTIME:-1s}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
go test -c -o "$tmp/predict.test" ./commmodel/predict
go test -c -o "$tmp/commmodel.test" ./commmodel
go test -c -o "$tmp/heldout.test" ./commmodel/predict/heldout
echo "bench-report: predict benchmarks, $count runs" >&2
(cd commmodel/predict && "$tmp/predict.test" -test.run '^$' -test.bench '^Benchmark(Calibrate|FromTables|Predict|Diagnose|Tune)$' \
	-test.cpu 1 -test.count "$count" -test.benchtime "$benchtime" -test.benchmem) >"$tmp/bench.txt"
(cd commmodel/predict/heldout && "$tmp/heldout.test" -test.run '^$' -test.bench '^BenchmarkFit(NICs|Switches)$' \
	-test.cpu 1 -test.count "$count" -test.benchtime 3x -test.benchmem) >>"$tmp/bench.txt"
echo "bench-report: commmodel BenchmarkTime, $count runs" >&2
(cd commmodel && "$tmp/commmodel.test" -test.run '^$' -test.bench '^BenchmarkTime$' \
	-test.cpu 1 -test.count "$count" -test.benchtime 100ms -test.benchmem) >"$tmp/time.txt"
echo "bench-report: regime map against the NumPy peer" >&2
ROUNDS=$count scripts/bench-regime.sh "$peer" >"$tmp/regime.txt"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# results FILE: "name ns/op allocs/op", one line per run of a benchmark.
results() {
	awk '$1 ~ /^Benchmark/ {
		t = ""; a = ""
		for (i = 2; i < NF; i++) {
			if ($(i+1) == "ns/op") t = $i
			if ($(i+1) == "allocs/op") a = $i
		}
		if (t != "") print $1, t, a
	}' "$1"
}

# stats NAME: "median least largest allocs" of benchmark NAME's ns/op over
# its runs, "missing" without any.
stats() {
	results "$tmp/bench.txt" | awk -v name="$1" '$1 == name { print $2, $3 }' | sort -g | awk '
		{ t[NR] = $1; a = $2 }
		END {
			if (NR == 0) { print "missing"; exit }
			m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			print m, t[1], t[NR], a
		}'
}

# human NS: a duration in ns, with its unit.
human() {
	awk -v t="$1" 'BEGIN {
		if (t >= 1e9) printf "%.2f s", t / 1e9
		else if (t >= 1e6) printf "%.1f ms", t / 1e6
		else if (t >= 1e3) printf "%.1f µs", t / 1e3
		else printf "%.1f ns", t
	}'
}

# row WHAT BENCHMARK LIMIT_NS TARGET: one row; LIMIT_NS 0 is no target.
row() {
	read -r med lo hi allocs <<<"$(stats "$2")"
	if [ "$med" = missing ]; then
		echo "bench-report: no result for $2" >&2
		exit 1
	fi
	local met=""
	if [ "$3" != 0 ]; then
		met=$(awk -v m="$med" -v l="$3" 'BEGIN { print (m <= l) ? "yes" : "**no**" }')
	fi
	printf '| %s | `%s` | %s | %s to %s | %s | %s | %s |\n' "$1" "${2#Benchmark}" "$(human "$med")" "$(human "$lo")" "$(human "$hi")" "$allocs" "$4" "$met"
}

table() {
	echo "Measured with \`scripts/bench-report.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD), on"
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') with $(nproc) cores (\`nproc\`) and $(go env GOVERSION). Each benchmark ran on one core"
	echo "(\`-cpu 1\`) $count times; a row gives the median and the range over the runs. The machine was"
	echo "shared with other work while measuring (load average $(cut -d' ' -f1 <<<"$load_before") before, $(cut -d' ' -f1 <<<"$load_after") after), so a figure"
	echo "can move by tens of percent from one report to the next: compare two builds with"
	echo "\`scripts/bench-compare.sh\`, which alternates them."
	echo
	echo "| what | benchmark | median | range | allocs/op | target | met |"
	echo "|---|---|---:|---:|---:|---|---|"
	row "calibrate on 1 table, intervals included" BenchmarkCalibrate/tables=1 0 ""
	row "calibrate on 9 tables" BenchmarkCalibrate/tables=9 0 ""
	row "calibrate on 27 tables" BenchmarkCalibrate/tables=27 1e9 "<= 1 s"
	row "calibrate on 100 tables" BenchmarkCalibrate/tables=100 4e9 "<= 4 s"
	row "calibrate on 27 tables without the refits" BenchmarkCalibrate/tables=27/nointervals 0 ""
	row "calibrate on one table of 20,000 sizes" BenchmarkCalibrate/rows=20000 0 ""
	row "choose the NICs per node from cluster01's 36 tables of 1 to 8 GPUs a node" BenchmarkFitNICs 1e9 "<= 1 s"
	row "choose NVLS and the NICs' path and rate from the same 36 tables" BenchmarkFitSwitches 1e9 "<= 1 s"
	row "what 36 tables say of the machine, as predict takes it before calibrating" BenchmarkFromTables/tables=36 0 ""
	row "the same of 100 tables" BenchmarkFromTables/tables=100 0 ""
	row "one prediction: a query at 16 sizes" BenchmarkPredict 0 ""
	row "diagnose a 27-size sweep" BenchmarkDiagnose 0 ""
	row "tune: 3 collectives on 5 communicators at 23 sizes" BenchmarkTune 0 ""
	# The slowest form of one evaluation (the largest median), and the most
	# allocations of any.
	local forms slowest worst allocs
	forms=$(results "$tmp/time.txt" | cut -d' ' -f1 | sort -u | wc -l)
	read -r slowest worst <<<"$(results "$tmp/time.txt" | sort -k1,1 -k2,2g | awk '
		function flush() {
			if (n == 0) return
			m = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			if (m > max) { max = m; name = prev }
			n = 0
		}
		$1 != prev { flush(); prev = $1 }
		{ t[++n] = $2 }
		END { flush(); print name, max }')"
	allocs=$(results "$tmp/time.txt" | awk '$3 > a { a = $3 } END { print a + 0 }')
	met=$(awk -v m="$worst" -v a="$allocs" 'BEGIN { print (m <= 50 && a == 0) ? "yes" : "**no**" }')
	printf '| one evaluation of an algorithm'"'"'s time, the slowest of %d forms | `%s` | %s | | %s | <= 50 ns, 0 allocs | %s |\n' \
		"$forms" "${slowest#Benchmark}" "$(human "$worst")" "$allocs" "$met"
	# NumPy / Go (new): median 9.81x, least 9.20x, largest 10.4x over 5 rounds
	for form in new reuse; do
		read -r med lo hi <<<"$(sed -n "s/^NumPy \/ Go ($form): median \([0-9.]*\)x, least \([0-9.]*\)x, largest \([0-9.]*\)x.*/\1 \2 \3/p" "$tmp/regime.txt")"
		if [ -z "$med" ]; then
			echo "bench-report: no ratio in bench-regime.sh's output:" >&2
			cat "$tmp/regime.txt" >&2
			exit 1
		fi
		met=$(awk -v m="$med" 'BEGIN { print (m >= 4) ? "yes" : "**no**" }')
		printf '| 64 x 1024 AllReduce regime map (%s), times faster than NumPy | `RegimeMap/%s` against the peer | %sx | %sx to %sx | | >= 4x | %s |\n' \
			"$([ $form = new ] && echo allocated || echo "in place")" "$form" "$med" "$lo" "$hi" "$met"
	done
}

table >"$tmp/table.md"
cat "$tmp/table.md"
if $write; then
	doc=docs/performance.md
	begin='<!-- bench-report: begin -->' end='<!-- bench-report: end -->'
	if ! grep -qxF "$begin" "$doc" || ! grep -qxF "$end" "$doc"; then
		echo "bench-report: $doc has no $begin ... $end section" >&2
		exit 1
	fi
	awk -v b="$begin" -v e="$end" -v f="$tmp/table.md" '
		$0 == b { print; print ""; while ((getline l < f) > 0) print l; print ""; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$doc" >"$doc.tmp"
	mv "$doc.tmp" "$doc"
	echo "bench-report: wrote $doc" >&2
fi
