#!/usr/bin/env bash
# Runs a command with an unlocked gnome-keyring (Secret Service) on the current D-Bus session.
# Use under `dbus-run-session`. The keyring lives in a throw-away HOME-like folder.
set -euo pipefail
keyring_home=$(mktemp -d)
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$keyring_home/run}"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
eval "$(printf 'packdesk-test-keyring' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL PACKDESK_KEYRING=1
status=0
"$@" || status=$?
rm -rf "$keyring_home"
exit $status
