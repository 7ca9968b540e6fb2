# Runs a command with a fresh GNOME keyring (Secret Service) on the D-Bus session of dbus-run-session:
#   dbus-run-session -- bash test/helpers/with-keyring.sh node bin/mch-sync.js ...
# MCH_KEYRING_DIR names a folder for the keyring's files (the caller removes it); else mktemp makes one.
set -eu
base=${MCH_KEYRING_DIR:-$(mktemp -d)}
mkdir -p -m 700 "$base/data" "$base/runtime"
export XDG_DATA_HOME="$base/data" XDG_RUNTIME_DIR="$base/runtime"
# A login keyring unlocked with a throwaway password, then the secrets component on this session bus.
echo -n "pw" | gnome-keyring-daemon --daemonize --login >/dev/null
eval "$(gnome-keyring-daemon --start --components=secrets | sed 's/^/export /')"
# The daemon ends with the session bus, when dbus-run-session sees this command finish.
exec "$@"
