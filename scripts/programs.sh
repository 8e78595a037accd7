# Sourced by setup.sh and test.sh: every program that a test, benchmark or script runs, with the
# Debian package that provides it. Add a line here whenever a test starts calling a new program.
packdesk_programs=(
  "chromium:chromium"
  "secret-tool:libsecret-tools"
  "gnome-keyring-daemon:gnome-keyring"
  "dbus-run-session:dbus"
  "dbus-launch:dbus-x11"
  "pdftoppm:poppler-utils"
  "pdftotext:poppler-utils"
  "pdffonts:poppler-utils"
  "zbarimg:zbar-tools"
  "make:build-essential"
  "g++:build-essential"
  "python3:python3"
  "pkill:procps"
  "mount:mount"
  "umount:mount"
  "openssl:openssl"
  "nats-server:nats-server"
  "zip:zip"
  "tar:tar"
  "taskset:util-linux"
)
# Libraries and certificates that no program name stands for.
packdesk_libraries=(libsecret-1-dev ca-certificates)

# Fails, naming each missing program and its package, when any program is not on the PATH.
packdesk_check_programs() {
  local absent=() entry
  for entry in "${packdesk_programs[@]}"; do
    command -v "${entry%%:*}" >/dev/null 2>&1 || absent+=("${entry%%:*} (Debian package ${entry#*:})")
  done
  if [ ${#absent[@]} -gt 0 ]; then
    printf 'Missing programs the tests need (run scripts/setup.sh):\n' >&2
    printf '  %s\n' "${absent[@]}" >&2
    return 1
  fi
}
