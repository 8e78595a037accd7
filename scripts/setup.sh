#!/usr/bin/env bash
# Installs what Packdesk needs on a fresh Debian/Ubuntu machine: system packages (Chromium for the UI
# tests, libsecret + gnome-keyring + D-Bus + secret-tool for the keychain, poppler and zbar to read
# printed slips back, a C++ toolchain for better-sqlite3 and keytar), then the npm packages. The
# Electron binary is never downloaded here (it cannot be on our CI machines); packaging fetches what
# it needs. Ends by checking, by name, every program a test or script calls.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/programs.sh

packages=("${packdesk_libraries[@]}")
for entry in "${packdesk_programs[@]}"; do packages+=("${entry#*:}"); done
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# A package that installed but left no program (another distribution, a renamed binary) fails here,
# by name, rather than as a puzzling test failure half an hour later.
packdesk_check_programs

export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund
