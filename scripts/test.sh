#!/usr/bin/env bash
# The whole test suite: type-check, lint, build, Electronegativity, then vitest inside a private
# D-Bus session with an unlocked gnome-keyring, so keychain tests talk to a real Secret Service.
# Ends with one plain "N passed, N failed" line read from vitest's JSON report.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || bash scripts/setup.sh
source scripts/programs.sh
packdesk_check_programs
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm run typecheck
npm run lint
npm run build
npm run electronegativity
mkdir -p test-results
report=test-results/vitest.json
rm -f "$report"
status=0
dbus-run-session -- bash scripts/with-keyring.sh npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@" || status=$?
if [ -f "$report" ]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  ' "$report"
fi
exit $status
