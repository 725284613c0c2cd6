#!/usr/bin/env bash
# test.sh: every test of commlab (the README's second command; CI runs it).
#
#   1. go vet ./...
#   2. go test ./...                      (needs no Jupyter)
#   3. go test -race -short ./...         every test again under the race
#      detector; -short narrows the exhaustive sweeps and the long end-to-end
#      builds that step 2 runs in full, each to a fast case of the same check.
#   4. scripts/notebook-server-test.sh    the interactive server of
#      scripts/notebook-server.sh: its gonb kernelspec, a cell importing
#      commmodel run through its REST API, a notebook page rendered in
#      headless Chromium, and the server stopped.
#   5. scripts/notebooks.sh -check        every notebook executed in the real
#      GoNB kernel (into a temporary folder: the committed notebooks are left
#      as they are) and checked, and the deliberately failing notebooks in
#      notebooks/testdata executed and required to be caught by the check.
#
# Installs Jupyter, GoNB and goimports on first use (scripts/setup-notebooks.sh),
# and for step 4 the Jupyter Notebook server, Chromium and two npm packages.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
	export PATH="/usr/local/go/bin:$PATH"
fi

echo "== go vet ./..."
go vet ./...
echo "== go test ./..."
go test ./...
echo "== go test -race -short ./..."
go test -race -short ./...
echo "== the notebook server"
scripts/notebook-server-test.sh
echo "== notebooks in the GoNB kernel"
# Its last line, "notebooks: N passed, N failed", closes the run.
exec scripts/notebooks.sh -check
