#!/usr/bin/env bash
# Runs a command with a real Secret Service: a private D-Bus session with gnome-keyring,
# unlocked, in a temporary HOME, so tests use the OS keychain for real and never touch
# the user's own. Usage: scripts/with-keyring.sh COMMAND [ARGS...]
set -euo pipefail
for tool in dbus-run-session gnome-keyring-daemon; do
  command -v "$tool" >/dev/null || { echo "with-keyring: '$tool' not found: apt-get install dbus-daemon gnome-keyring" >&2; exit 1; }
done
tmp="$(mktemp -d "${TMPDIR:-/tmp}/folioscope-keyring.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
export FOLIOSCOPE_REAL_HOME="${HOME:-}"
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
# npm and tsx keep their caches under HOME; point npm back at the real one (offline-friendly).
export npm_config_cache="${npm_config_cache:-$FOLIOSCOPE_REAL_HOME/.npm}"
dbus-run-session -- bash -c '
  echo -n folioscope-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"' _ "$@"
