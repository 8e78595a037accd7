#!/usr/bin/env bash
# `npm start`: runs Packdesk in training mode (the built-in sandbox order service, seeded orders).
# With the Electron binary and a display it opens the desktop app; otherwise (a machine where the
# Electron binary cannot be downloaded, like our CI) it serves the same app to a browser.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || bash scripts/setup.sh
electron_bin=$(node -e "try{process.stdout.write(require('electron'))}catch{}" 2>/dev/null || true)
# Several training counters of one store (--counters N) run in the browser harness, one address each.
case " $* " in *" --counters "*|*" --counters="*) electron_bin="" ;; esac
if [ -n "$electron_bin" ] && [ -x "$electron_bin" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  # npm run build: electron-vite's three parts and the queue's first-screen drawing (out/first-screen).
  npm run build
  exec npx electron-vite preview --skipBuild
fi
echo "No Electron binary or no display here: starting Packdesk in the browser harness instead."
exec npm run web -- "$@"
