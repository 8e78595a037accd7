#!/usr/bin/env bash
# The whole test suite: type-check, lint, build, then vitest inside a private D-Bus session with an
# unlocked gnome-keyring, so keychain tests talk to a real Secret Service.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || bash scripts/setup.sh
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm run typecheck
npm run lint
npm run build
npm run electronegativity
exec dbus-run-session -- bash scripts/with-keyring.sh npx vitest run "$@"
