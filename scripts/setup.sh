#!/usr/bin/env bash
# Installs what Packdesk needs on a fresh Debian/Ubuntu machine: system packages (Chromium for the UI
# tests, libsecret + gnome-keyring + D-Bus for the keychain, a C++ toolchain for better-sqlite3 and
# keytar), then the npm packages. The Electron binary is never downloaded here (it cannot be on our
# CI machines); packaging fetches what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(chromium libsecret-1-dev gnome-keyring dbus dbus-x11 build-essential python3 procps ca-certificates)
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
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund
