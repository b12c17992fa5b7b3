# Sourced by the scripts that install what the tests need from Debian's packages (scripts/ensure-chromium.sh,
# scripts/ensure-queue-services.sh): apt-get as root or through password-less sudo, one caller at a time.

# apt_lock NAME: holds a lock for the rest of the calling script, so concurrent callers install only once.
apt_lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>"${TMPDIR:-/tmp}/cm-ensure-$1.lock"
    flock 9
  fi
}

# apt_install LABEL PACKAGE...: `apt-get update`, then `apt-get install -y` the packages. Without apt-get, or
# without root and password-less sudo, it fails and says what to run by hand.
apt_install() {
  local label="$1"
  shift
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "[$label] missing: $*; there is no apt-get: install them yourself" >&2
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      echo "[$label] missing: $*; installing needs root: sudo apt-get update && sudo apt-get install -y $*" >&2
      return 1
    fi
  fi
  local started=$SECONDS
  echo "[$label] missing: $*: apt-get update, then apt-get install -y $*" >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@" >&2
  echo "[$label] installed in $((SECONDS - started)) s" >&2
}
