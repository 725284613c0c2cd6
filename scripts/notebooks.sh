#!/usr/bin/env bash
# notebooks.sh: run every GoNB notebook under a real Jupyter and check it.
#
# Usage: scripts/notebooks.sh [-check] [-html] [-outdir DIR] [-update-testdata] [NOTEBOOK.ipynb...]
#
# Installs what is missing (scripts/setup-notebooks.sh), executes each notebook
# (default: notebooks/*.ipynb) headless with /usr/bin/jupyter nbconvert and the
# GoNB kernel, writes the executed notebook back in place so its outputs are
# committed, and checks it with notebooks/cmd/nbcheck: no error output, no
# "panic:" or "exit status" on stderr, every code cell executed, at least one
# PNG. nbconvert itself exits 0 on a Go panic, so the check reads the result.
# Prints a table (notebook, cells, images, seconds) and exits non-zero on any
# failure.
#
#   -check  write the executed notebooks to a temporary folder instead of in
#           place (warning when they differ from the committed ones, whose
#           outputs are then out of date), and also execute
#           notebooks/testdata/*.ipynb (notebooks that
#           panic, log.Fatal, os.Exit(1) or run a failing "!" line), which must
#           each be reported as failing; before executing, check that
#           every notebook is nbformat 4.5 or later with unique cell ids
#           (nbcheck -format). scripts/test.sh uses this mode.
#   -html   also write HTML copies to notebooks/html/.
#   -outdir DIR  write the executed notebooks to DIR instead of in place.
#   -update-testdata  only re-execute notebooks/testdata/*.ipynb into
#           notebooks/testdata/executed/, the copies that go test reads.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0 html=0 update=0 outroot=""
notebooks=()
while [ $# -gt 0 ]; do
	arg="$1"
	shift
	case "$arg" in
	-outdir | --outdir)
		[ $# -gt 0 ] || { echo "notebooks.sh: -outdir needs a folder" >&2; exit 2; }
		mkdir -p "$1"
		outroot="$(cd "$1" && pwd)"
		shift
		;;
	-check | --check) check=1 ;;
	-html | --html) html=1 ;;
	-update-testdata | --update-testdata) update=1 ;;
	-h | -help | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	-*) echo "notebooks.sh: unknown flag $arg" >&2; exit 2 ;;
	*) notebooks+=("$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")") ;;
	esac
done

# shellcheck source=setup-notebooks.sh
. "$ROOT/scripts/setup-notebooks.sh"
cd "$ROOT"
if [ ${#notebooks[@]} -eq 0 ]; then
	notebooks=("$ROOT"/notebooks/*.ipynb)
fi
[ -e "${notebooks[0]}" ] || { echo "notebooks.sh: no notebooks found" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/nbcheck" ./notebooks/cmd/nbcheck
# Compile the packages the notebooks import (figure, article, nbshow and all
# they import) once, using every core, before the kernels start: otherwise,
# from an empty build cache, each kernel compiles gonum/plot and gota itself
# at the same time.
go build ./figure ./article ./notebooks/...

# Bounded in time: a cell gets CELL_TIMEOUT seconds, a whole notebook
# NOTEBOOK_TIMEOUT (the first, cold run compiles gonum/plot and gota).
CELL_TIMEOUT="${CELL_TIMEOUT:-300}"
NOTEBOOK_TIMEOUT="${NOTEBOOK_TIMEOUT:-900}"
# Notebooks run NOTEBOOK_JOBS at a time (default: one more than the cores): a
# cell's time is mostly go build, whose link uses about one core, and one
# more notebook fills the gaps of kernel starts and nbconvert (the seven on
# 2 cores: 80.7-84.0 s wall three at a time, 88.6-88.9 s two at a time).
JOBS="${NOTEBOOK_JOBS:-$(($(nproc 2>/dev/null || echo 2) + 1))}"
# Every cell is a go build; leaving out DWARF (-ldflags=-w) cuts a quarter of
# it. GOFLAGS from the environment or go env is kept.
export GOFLAGS="$(go env GOFLAGS) -ldflags=-w"

# execute NOTEBOOK OUTDIR: run it in the GoNB kernel, writing OUTDIR/NAME and
# appending "path<TAB>seconds" to $work/times. Returns nbconvert's status.
execute() {
	local nb="$1" outdir="$2" start end rc=0 try
	local out="$outdir/$(basename "$nb")" log="$work/$(basename "$nb").log"
	start=$(date +%s.%N)
	# A kernel that dies before it answers kernel_info has run no cell: with
	# several kernels starting at once, Jupyter's client can hand two of them
	# the same free port (jupyter/jupyter_client#154). Such a start is retried,
	# twice at most; any other failure is the notebook's.
	for try in 1 2 3; do
		rc=0
		# --allow-errors: keep executing and always save, so the check sees everything.
		# The kernel's working folder is the notebook's own (GONB_DIR).
		(cd "$(dirname "$nb")" && timeout "$NOTEBOOK_TIMEOUT" "$JUPYTER" nbconvert --to notebook --execute \
			--allow-errors \
			--ExecutePreprocessor.timeout="$CELL_TIMEOUT" \
			--ExecutePreprocessor.startup_timeout=120 \
			--ExecutePreprocessor.record_timing=False \
			--output-dir "$outdir" --output "$(basename "$nb")" \
			"$(basename "$nb")") >"$log" 2>&1 || rc=$?
		[ $rc -ne 0 ] && [ $try -lt 3 ] && grep -q 'Kernel died before replying to kernel_info' "$log" || break
		echo "notebooks.sh: the kernel for $(basename "$nb") died before it started (try $try); starting it again" >&2
	done
	end=$(date +%s.%N)
	awk -v p="$out" -v a="$start" -v b="$end" 'BEGIN { printf "%s\t%.1f\n", p, b - a }' >>"$work/times"
	if [ $rc -ne 0 ]; then
		echo "notebooks.sh: nbconvert failed on $nb (status $rc):" >&2
		tail -n 20 "$log" >&2
	fi
	return $rc
}

# spawn NOTEBOOK OUTDIR: execute in the background, at most $JOBS at once;
# wait_all waits for them all and fails if any nbconvert did.
spawn() {
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
	(execute "$1" "$2" || echo "$1" >>"$work/failed") &
}
wait_all() {
	wait
	if [ -s "$work/failed" ]; then
		: >"$work/failed"
		return 1
	fi
}

if [ $update -eq 1 ]; then
	mkdir -p "$ROOT/notebooks/testdata/executed"
	for nb in "$ROOT"/notebooks/testdata/*.ipynb; do
		spawn "$nb" "$ROOT/notebooks/testdata/executed"
	done
	wait_all
	"$work/nbcheck" -expect-fail -times "$work/times" "$ROOT"/notebooks/testdata/executed/*.ipynb
	exit
fi

status=0
if [ $check -eq 1 ]; then
	# The notebooks' format as committed (nbformat 4.5 or later, every cell
	# with a valid id no other cell has): read here, since nbformat gives a
	# duplicate id a new one when nbconvert reads the notebook.
	echo "notebook format (nbformat >= 4.5, unique cell ids):"
	"$work/nbcheck" -format "${notebooks[@]}" "$ROOT"/notebooks/testdata/*.ipynb | tee "$work/check.out" || status=1
fi
executed=()
start_all=$(date +%s.%N)
for nb in "${notebooks[@]}"; do
	if [ $check -eq 1 ]; then
		outdir="$work/out"
	elif [ -n "$outroot" ]; then
		outdir="$outroot"
	else
		outdir="$(dirname "$nb")"
	fi
	mkdir -p "$outdir"
	executed+=("$outdir/$(basename "$nb")")
	spawn "$nb" "$outdir"
done
wait_all || status=1
end_all=$(date +%s.%N)
if [ $html -eq 1 ]; then
	mkdir -p "$ROOT/notebooks/html"
	for f in "${executed[@]}"; do
		[ -f "$f" ] || continue
		"$JUPYTER" nbconvert --to html --output-dir "$ROOT/notebooks/html" "$f" \
			>>"$work/html.log" 2>&1 || { echo "notebooks.sh: HTML export failed for $f" >&2; status=1; }
	done
fi

existing=()
for f in "${executed[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ ${#existing[@]} -gt 0 ]; then
	committed=()
	# In -check mode, also warn when a committed notebook's outputs are out of date.
	[ $check -eq 1 ] && committed=(-committed "$ROOT/notebooks")
	"$work/nbcheck" -times "$work/times" "${committed[@]}" "${existing[@]}" | tee -a "$work/check.out" || status=1
fi
total=$(awk -F'\t' '{s += $2} END {printf "%.1f", s}' "$work/times")
wall=$(awk -v a="$start_all" -v b="$end_all" 'BEGIN { printf "%.1f", b - a }')
echo "notebooks: ${#notebooks[@]} executed in $wall s wall ($total s summed over notebooks, $JOBS at a time)"

if [ $check -eq 1 ]; then
	# The deliberately failing notebooks: nbconvert exits 0 on them; the check must not.
	bad=("$ROOT"/notebooks/testdata/*.ipynb)
	: >"$work/times"
	mkdir -p "$work/bad"
	for nb in "${bad[@]}"; do
		spawn "$nb" "$work/bad"
	done
	wait_all || { echo "notebooks.sh: nbconvert itself failed on a testdata notebook" >&2; status=1; }
	echo "failing notebooks in notebooks/testdata (each must be caught):"
	"$work/nbcheck" -expect-fail -times "$work/times" "$work"/bad/*.ipynb | tee -a "$work/check.out" || status=1
	# And the runner itself, as a user runs it, must fail on a panicking notebook.
	if "$ROOT/scripts/notebooks.sh" -outdir "$work/runner" "$ROOT/notebooks/testdata/panic.ipynb" >"$work/runner.log" 2>&1; then
		echo "notebooks.sh: FAIL: the runner exited 0 on notebooks/testdata/panic.ipynb" >&2
		cat "$work/runner.log" >&2
		echo "nbcheck: 0 passed, 1 failed" >>"$work/check.out"
		status=1
	else
		echo "runner on notebooks/testdata/panic.ipynb: failed as it must ($(grep -c 'panic' "$work/runner.log") panic lines reported)"
		echo "nbcheck: 1 passed, 0 failed" >>"$work/check.out"
	fi
	# One closing line over the notebooks, the caught failures and the runner test.
	awk '/^nbcheck: [0-9]+ passed, [0-9]+ failed$/ { p += $2; f += $4 } END { printf "notebooks: %d passed, %d failed\n", p, f }' "$work/check.out"
fi

if [ $status -ne 0 ]; then
	echo "notebooks: FAILED" >&2
fi
exit $status
