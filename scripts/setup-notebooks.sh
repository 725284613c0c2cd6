#!/usr/bin/env bash
# setup-notebooks.sh: install what the notebooks need, only what is missing.
#
#   - Debian's jupyter-nbconvert and python3-jupyter-client (apt), which
#     bring /usr/bin/jupyter, and any Debian packages a caller names in
#     NOTEBOOK_APT_EXTRA (scripts/notebook-server.sh adds jupyter-notebook,
#     its test chromium), all in one apt-get run;
#   - GoNB v0.11.1, built in a throwaway module (go install ...@v0.11.1 is
#     refused by the module proxy here), and goimports from golang.org/x/tools
#     v0.52.0, both into notebooks/.tools/bin;
#   - the GoNB kernel ("gonb") into the project-local Jupyter data folder
#     notebooks/.tools/jupyter.
#
# It is idempotent and takes well under a second when everything is present.
# Source it (". scripts/setup-notebooks.sh") to get PATH, JUPYTER_DATA_DIR and
# JUPYTER_PATH exported into the calling shell, or run it on its own.
set -euo pipefail

COMMLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GONB_VERSION=v0.11.1
TOOLS_VERSION=v0.52.0
NB_TOOLS="$COMMLAB_ROOT/notebooks/.tools"
export GOBIN="$NB_TOOLS/bin"
export JUPYTER_DATA_DIR="$NB_TOOLS/jupyter"
export JUPYTER_PATH="$JUPYTER_DATA_DIR"
export JUPYTER_CONFIG_DIR="$NB_TOOLS/jupyter-config"
# GoNB and the notebooks need go and goimports on PATH (the kernel inherits it).
export PATH="$GOBIN:$PATH"
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
	export PATH="$PATH:/usr/local/go/bin"
fi
JUPYTER=/usr/bin/jupyter # a pyenv python3 earlier on PATH may lack Jupyter

setup_log() { echo "setup-notebooks: $*" >&2; }

# has_module BIN MODULE VERSION: the binary was built from MODULE at VERSION.
has_module() {
	[ -x "$1" ] && go version -m "$1" 2>/dev/null | grep -Eq "^[[:space:]]+(mod|dep)[[:space:]]+$2[[:space:]]+$3([[:space:]]|$)"
}

# The Debian packages, split on spaces: NOTEBOOK_APT_EXTRA may name several.
# shellcheck disable=SC2206
APT_PACKAGES=(jupyter-nbconvert python3-jupyter-client ${NOTEBOOK_APT_EXTRA:-})

# setup_apt: install the packages of APT_PACKAGES that dpkg does not list as
# installed, with one apt-get update and one apt-get install.
setup_apt() {
	local installed missing=() p
	installed=" $(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${APT_PACKAGES[@]}" 2>/dev/null |
		awk '$2 == "installed" { printf "%s ", $1 }' || true)"
	for p in "${APT_PACKAGES[@]}"; do
		[[ "$installed" == *" $p "* ]] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	setup_log "installing ${missing[*]} with apt-get"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
}

setup_go_tools() {
	command -v go >/dev/null || { setup_log "go is not on PATH"; return 1; }
	mkdir -p "$GOBIN"
	if ! has_module "$GOBIN/goimports" golang.org/x/tools "$TOOLS_VERSION"; then
		setup_log "installing goimports $TOOLS_VERSION"
		(cd "$NB_TOOLS" && GOFLAGS=-mod=mod go install "golang.org/x/tools/cmd/goimports@$TOOLS_VERSION")
	fi
	if ! has_module "$GOBIN/gonb" github.com/janpfeifer/gonb "$GONB_VERSION"; then
		setup_log "building GoNB $GONB_VERSION"
		local tmp
		tmp="$(mktemp -d)"
		(
			cd "$tmp"
			go mod init gonbbuild >/dev/null 2>&1
			go get "github.com/janpfeifer/gonb@$GONB_VERSION" >go-get.log 2>&1 || { cat go-get.log >&2; exit 1; }
			go install github.com/janpfeifer/gonb
		)
		rm -rf "$tmp"
	fi
}

setup_kernel() {
	local spec="$JUPYTER_DATA_DIR/kernels/gonb"
	# gonb --install either copies itself into the kernel folder or points
	# kernel.json at $GOBIN/gonb; either way the binary must be the one built here.
	if [ -f "$spec/kernel.json" ] && grep -q -- "--raw_error" "$spec/kernel.json" &&
		{ cmp -s "$spec/gonb" "$GOBIN/gonb" || grep -q "\"$GOBIN/gonb\"" "$spec/kernel.json"; }; then
		return
	fi
	setup_log "installing the GoNB kernel into $JUPYTER_DATA_DIR"
	mkdir -p "$JUPYTER_DATA_DIR"
	"$GOBIN/gonb" --install --raw_error --force_deps >/dev/null 2>&1 ||
		"$GOBIN/gonb" --install --raw_error --force_deps
	[ -f "$spec/kernel.json" ] || { setup_log "kernel.json missing after gonb --install"; return 1; }
}

setup_apt
setup_go_tools
setup_kernel
