#!/usr/bin/env bash
# notebook-server.sh: open the notebooks interactively in Jupyter Notebook.
#
# Usage: scripts/notebook-server.sh [-port N]
#
# Installs what is missing (scripts/setup-notebooks.sh, plus Debian's
# jupyter-notebook), then starts Debian's Jupyter Notebook server
# (/usr/bin/jupyter notebook) on 127.0.0.1, serving notebooks/, with the GoNB
# kernel that setup registered in notebooks/.tools/jupyter (the server is
# given that folder as its JUPYTER_PATH). Once the server answers it prints
# its URL, token included, alone on a line of stdout; its log goes to stderr.
# It runs until interrupted (Ctrl-C) or sent SIGTERM, and then stops the
# server and the kernels it started.
#
#   -port N  the port to try first (default $NOTEBOOK_PORT, else 8888); when
#            it is taken, Jupyter tries the next ones, and the URL printed is
#            the one it got.
#
# The token is random for every start unless NOTEBOOK_TOKEN gives one. It is
# handed over in the environment, not on the command line, so that other
# users of the machine cannot read it from the process list. The server
# listens on loopback only: from another machine, forward the port
# (ssh -L 8888:127.0.0.1:8888 HOST) and open the printed URL.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${NOTEBOOK_PORT:-8888}"
while [ $# -gt 0 ]; do
	case "$1" in
	-port | --port)
		[ $# -gt 1 ] || { echo "notebook-server.sh: -port needs a number" >&2; exit 2; }
		port="$2"
		shift 2
		;;
	-h | -help | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "notebook-server.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
if ! [[ "$port" =~ ^[0-9]{1,5}$ ]] || [ "$port" -lt 1 ] || [ "$port" -gt 65535 ]; then
	echo "notebook-server.sh: -port $port is not a port number" >&2
	exit 2
fi

# The runner's packages, and the notebook server. A caller (the test) may
# have named more in NOTEBOOK_APT_EXTRA already.
export NOTEBOOK_APT_EXTRA="${NOTEBOOK_APT_EXTRA:-} jupyter-notebook"
# shellcheck source=setup-notebooks.sh
. "$ROOT/scripts/setup-notebooks.sh"

token="${NOTEBOOK_TOKEN:-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}"
# A runtime folder of this server's own: the file in which Jupyter records
# its URL and token once it listens, and the kernels' connection files.
runtime="$(mktemp -d)"
export JUPYTER_RUNTIME_DIR="$runtime"
server=""
stop() {
	trap - EXIT INT TERM
	if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
		# SIGTERM: Jupyter shuts its kernels down and exits without asking.
		kill -TERM "$server" 2>/dev/null || true
		for _ in $(seq 100); do
			kill -0 "$server" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$server" 2>/dev/null || true
		wait "$server" 2>/dev/null || true
	fi
	rm -rf "$runtime"
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

# Kernels started through the REST API without a path run in the server's
# own folder, so it is notebooks/, as for a notebook there: the notebooks'
# first cell finds the module at ${GONB_DIR}/.. either way.
cd "$ROOT/notebooks"
root=()
[ "$(id -u)" -ne 0 ] || root=(--allow-root) # as in CI, which runs as root
JUPYTER_TOKEN="$token" "$JUPYTER" notebook \
	--no-browser \
	--ip=127.0.0.1 \
	--port="$port" \
	--notebook-dir="$ROOT/notebooks" \
	--MappingKernelManager.default_kernel_name=gonb \
	"${root[@]}" \
	</dev/null >&2 &
server=$!

# Jupyter writes nbserver-PID.json once it listens.
info=""
for _ in $(seq 1200); do
	for f in "$runtime"/nbserver-*.json; do [ -e "$f" ] && info="$f"; done
	[ -n "$info" ] && break
	kill -0 "$server" 2>/dev/null || { echo "notebook-server.sh: Jupyter exited before it listened" >&2; exit 1; }
	sleep 0.1
done
[ -n "$info" ] || { echo "notebook-server.sh: Jupyter did not listen within 120 s" >&2; exit 1; }
url="$(/usr/bin/python3 -c 'import json, sys; i = json.load(open(sys.argv[1])); print("http://%s:%d%stree?token=%s" % (i["hostname"], i["port"], i["base_url"], i["token"]))' "$info")"
echo "notebook-server: Jupyter Notebook serves $ROOT/notebooks at" >&2
echo "$url"
echo "notebook-server: open that URL in a browser; Ctrl-C stops the server" >&2
# wait returns early when a trapped signal arrives; the trap then stops the server.
status=0
wait "$server" || status=$?
server=""
exit "$status"
