#!/usr/bin/env bash
# notebook-server-test.sh: test scripts/notebook-server.sh as a reader uses it.
#
# Runs the command on a free loopback port and, through the URL it prints:
#   1. checks the gonb kernelspec (GET /api/kernelspecs): it runs the gonb
#      binary that setup built, and it is the default kernel;
#   2. starts a gonb kernel (POST /api/kernels) and, over its websocket
#      channel, runs the notebooks' first-cell recipe (taken from the
#      notebook) and a cell that imports commmodel and prints
#      Ring{}.Cost(8, 1e6).Steps, which must be 14 (the article's "ring at
#      P = 8 takes 14 steps": 2(P-1));
#   3. opens notebooks/01_allreduce.ipynb in headless Chromium: every cell in
#      the DOM, the first heading as the notebook's first line, every image
#      loaded, the gonb kernel shown; then takes a screenshot and checks its
#      pixels (text in the heading's box, hundreds of colours on the page);
#   4. stops the server (always, through the trap) and checks that its port
#      is closed and that the kernels it started are gone.
# The checks are in scripts/notebook-server-test.js (Node, with playwright-core
# and ws from npm in notebooks/.tools/node, and Debian's /usr/bin/chromium).
#
# Installs what is missing: the runner's packages, jupyter-notebook and
# chromium in one apt-get run (scripts/setup-notebooks.sh), Node from Debian
# if the machine has none, and the npm packages. NOTEBOOK_SERVER_SHOT=FILE
# keeps the screenshot.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PLAYWRIGHT_VERSION=1.65.1
WS_VERSION=8.23.0
NOTEBOOK="$ROOT/notebooks/01_allreduce.ipynb"
start=$(date +%s.%N)
log() { echo "notebook-server-test: $*"; }

# One apt-get run for everything: what the runner and the server need, and
# the browser. notebook-server.sh then finds all of it present.
export NOTEBOOK_APT_EXTRA="jupyter-notebook chromium fonts-dejavu-core"
# shellcheck source=setup-notebooks.sh
. "$ROOT/scripts/setup-notebooks.sh"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	# shellcheck disable=SC2034 # read by setup_apt
	APT_PACKAGES=(nodejs npm)
	setup_apt
fi
node_dir="$NB_TOOLS/node"
installed_version() { node -p "require('$node_dir/node_modules/$1/package.json').version" 2>/dev/null || true; }
if [ "$(installed_version playwright-core)" != "$PLAYWRIGHT_VERSION" ] || [ "$(installed_version ws)" != "$WS_VERSION" ]; then
	log "installing playwright-core@$PLAYWRIGHT_VERSION and ws@$WS_VERSION with npm into $node_dir"
	mkdir -p "$node_dir"
	npm install --prefix "$node_dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
		"playwright-core@$PLAYWRIGHT_VERSION" "ws@$WS_VERSION" >/dev/null
fi
export NODE_PATH="$node_dir/node_modules"
installed=$(date +%s.%N)

work="$(mktemp -d)"
server=""
stop_server() {
	[ -n "$server" ] || return 0
	kill -TERM "$server" 2>/dev/null || true
	for _ in $(seq 150); do
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$server" 2>/dev/null; then
		log "FAIL: notebook-server.sh did not stop within 15 s of SIGTERM"
		kill -KILL "$server" 2>/dev/null || true
		server=""
		return 1
	fi
	wait "$server" 2>/dev/null || true
	server=""
}
cleanup() {
	stop_server || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Opening a notebook must not change it (the page autosaves every 120 s, and
# would save an upgraded copy). The classic notebook creates
# notebooks/.ipynb_checkpoints when it lists a notebook's checkpoints; it is
# ignored by git, and removed again when this test made it.
cp "$NOTEBOOK" "$work/notebook.orig"
checkpoints="$ROOT/notebooks/.ipynb_checkpoints"
[ -e "$checkpoints" ] || trap 'cleanup; rmdir "$checkpoints" 2>/dev/null || true' EXIT

# A free loopback port: bound by the kernel, released, then given to the server.
port="$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
"$ROOT/scripts/notebook-server.sh" -port "$port" >"$work/stdout" 2>"$work/server.log" &
server=$!
url=""
for _ in $(seq 1200); do
	url="$(grep -m 1 -E '^http://127\.0\.0\.1:[0-9]+/tree\?token=[0-9a-f]{48}$' "$work/stdout" || true)"
	[ -n "$url" ] && break
	kill -0 "$server" 2>/dev/null || break
	sleep 0.1
done
fail() {
	log "FAIL: $*"
	echo "--- notebook-server.sh stdout:" && cat "$work/stdout"
	echo "--- notebook-server.sh stderr:" && tail -n 40 "$work/server.log"
	exit 1
}
[ -n "$url" ] || fail "no URL printed within 120 s"
[[ "$url" == "http://127.0.0.1:$port/"* ]] || fail "the URL $url is not on the port asked for, $port"
listening=$(date +%s.%N)
log "server up at ${url%%\?*}?token=... ($(awk -v a="$installed" -v b="$listening" 'BEGIN { printf "%.1f", b - a }') s)"

shot="${NOTEBOOK_SERVER_SHOT:-$work/notebook.png}"
node "$ROOT/scripts/notebook-server-test.js" "$url" "$GOBIN/gonb" "$NOTEBOOK" "$shot" >"$work/checks" 2>&1 ||
	{ cat "$work/checks"; fail "the checks against the server failed"; }
grep -v '^kernels: ' "$work/checks"
read -r -a kernels <<<"$(sed -n 's/^kernels: //p' "$work/checks")"
[ ${#kernels[@]} -eq 2 ] || fail "want the ids of 2 kernels from the checks, got ${kernels[*]:-none}"

stop_server || fail "the server did not stop"
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
	fail "port $port still answers after the server stopped"
fi
for id in "${kernels[@]}"; do
	if pgrep -f "kernel-$id.json" >/dev/null; then
		fail "kernel $id still runs after the server stopped: $(pgrep -af "kernel-$id.json")"
	fi
done
if ! cmp -s "$NOTEBOOK" "$work/notebook.orig"; then
	cp "$work/notebook.orig" "$NOTEBOOK"
	fail "opening $NOTEBOOK in the browser changed it (restored)"
fi
end=$(date +%s.%N)
log "ok  server stopped: port $port closed, kernels ${kernels[*]} gone"
log "passed in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s ($(awk -v a="$start" -v b="$installed" 'BEGIN { printf "%.1f", b - a }') s of it checking and installing the tools)"
