#!/usr/bin/env bash
# The test suite. With no tier: everything CI runs (type-check, lint, build, Electronegativity,
# then every vitest project). With a tier (`unit`, `integration` or `e2e`, see vitest.config.mts):
# only that vitest project, after a build when the tier uses the built app (out/).
# Vitest runs inside a private D-Bus session with an unlocked gnome-keyring, so keychain tests talk
# to a real Secret Service; unit tests never reach the keychain and run without one.
# Ends with one plain "N passed, N failed" line read from vitest's JSON report.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=""
case "${1:-}" in
  unit | integration | e2e) tier=$1 && shift ;;
esac
[ -d node_modules ] || bash scripts/setup.sh
source scripts/programs.sh
packdesk_check_programs
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
if [ -z "$tier" ]; then
  npm run typecheck
  npm run lint
  npm run build
  npm run electronegativity
elif [ "$tier" != unit ]; then
  npm run build
fi
mkdir -p test-results
report=test-results/vitest${tier:+-$tier}.json
rm -f "$report"
vitest=(npx vitest run --reporter=default --reporter=json --outputFile="$report" ${tier:+--project "$tier"} "$@")
status=0
if [ "$tier" = unit ]; then
  "${vitest[@]}" || status=$?
else
  dbus-run-session -- bash scripts/with-keyring.sh "${vitest[@]}" || status=$?
fi
if [ -f "$report" ]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`);
  ' "$report"
fi
exit $status
