#!/usr/bin/env bash
# Runs the tests with the machine's clock set to another moment (issue 36: a test passes on any
# day), through libfaketime (Debian's `faketime` package):
#   scripts/test-at.sh '2026-12-31 23:55:00' [zone] [vitest arguments…]
# The clock starts at that moment in the zone given (Europe/Berlin unless said) and runs on, so a
# run started just before midnight, a month's end or a DST change crosses it. FAKETIME_DONT_RESET
# keeps one clock for the test process and every process it starts (the CLI, the simulator):
# without it each child starts again at the moment given, and two processes disagree on "now".
# With no vitest arguments it runs every test but the browser's (Chromium under libfaketime is
# not what is being tested); with arguments but no test path (`--reporter=default`, say) vitest
# runs every test, the browser's included, as `npm test` does: that is how the whole suite was
# run at other moments (docs/ARCHITECTURE.md, "any day"). Build first (`npx electron-vite build`).
set -euo pipefail
at=${1:?usage: scripts/test-at.sh "YYYY-MM-DD HH:MM:SS" [zone] [vitest arguments…]}
zone=${2:-Europe/Berlin}
shift $(( $# >= 2 ? 2 : 1 ))
command -v faketime >/dev/null || { echo "faketime is not installed: apt-get install faketime" >&2; exit 2; }
cd "$(dirname "$0")/.."
# The project's Node (24), as .ci/run puts it first: an older one cannot load the native modules.
PATH="$(scripts/provision-node.sh 2>/dev/null):$PATH"
if [ $# -eq 0 ]; then
  set -- $(ls -d test/*/ | grep -v -e '^test/e2e/' -e '^test/launch/' -e '^test/electron-e2e/' -e '^test/support/')
fi
export FAKETIME_DONT_RESET=1 TZ="$zone"
exec faketime -f "@$at" scripts/with-keyring.sh npx vitest run "$@"
