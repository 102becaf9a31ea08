#!/usr/bin/env bash
# Installs what browser.mjs runs on into a cache directory, $SDM_CODE_SERVER_HOME (default
# /var/tmp/sdm-code-server): code-server 4.99.4 (VS Code 1.99 in a browser, the last release on
# node 20) and playwright-core, at the versions of package-lock.json beside this script, plus
# Debian's chromium, ripgrep and libkrb5-dev. Idempotent: a cache installed from the same lockfiles,
# node and script is left as it is (a second or so); anything else is installed anew.
#
# code-server's own postinstall cannot run here: it downloads ripgrep from GitHub and prebuilt native
# modules, and the machine reaches no host but the package registries. So this does its steps by
# hand: every package with its scripts off, the ripgrep binary linked to Debian's rg, the native
# modules built from source against node's own headers (npm rebuild), and the links the postinstall
# makes. Exit status 0 when installed; else 1, with what failed and why on standard error and the
# step's log in $SDM_CODE_SERVER_HOME/install.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
home=${SDM_CODE_SERVER_HOME:-/var/tmp/sdm-code-server}
log=$home/install.log

say() { printf '[install-code-server] %s\n' "$*" >&2; }
fail() {
  say "FAILED: $*"
  exit 1
}

# What is missing of the system's part, as Debian package names: a command or file each.
missing_packages() {
  local missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  command -v krb5-config >/dev/null 2>&1 || missing+=(libkrb5-dev) # the kerberos module's build
  command -v g++ >/dev/null 2>&1 || missing+=(g++)
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v python3 >/dev/null 2>&1 || missing+=(python3) # node-gyp
  echo "${missing[@]}"
}

command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
  || fail "node and npm are not installed (code-server 4.99.4 needs node 20)"
node_version=$(node -v)
[ "${node_version%%.*}" = v20 ] \
  || fail "node is $node_version; code-server 4.99.4 (pinned in package-lock.json, the last on node 20) needs node 20"

missing=$(missing_packages)
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    fail "missing Debian packages: $missing; not root or no apt-get, so they cannot be installed here"
  fi
  say "installing $missing (apt-get)"
  mkdir -p "$home" 2>/dev/null || fail "cannot create $home (SDM_CODE_SERVER_HOME)"
  # shellcheck disable=SC2086 # a list of package names
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; } \
    >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    fail "apt-get install $missing failed (log: $log)"
  fi
  missing=$(missing_packages)
  [ -z "$missing" ] || fail "still missing after apt-get: $missing"
fi

# node-gyp builds against node's headers: from the directory node was installed in (/usr), never
# downloaded (nodejs.org is not reachable).
if [ -z "${npm_config_nodedir:-}" ]; then
  prefix=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
  [ -f "$prefix/include/node/node_version.h" ] \
    || fail "node's headers are not in $prefix/include/node: the native modules cannot be built"
  export npm_config_nodedir=$prefix
fi

mkdir -p "$home" 2>/dev/null || fail "cannot create $home (SDM_CODE_SERVER_HOME)"
exec 9>"$home/.lock"
flock -w 1200 9 || fail "another install into $home held its lock for 20 minutes"

stamp=$( (cat "$here/package-lock.json" "$here/vscode-extensions.package-lock.json" "$0"
  echo "$node_version") | sha256sum | cut -d' ' -f1)
if [ "$(cat "$home/.installed" 2>/dev/null)" = "$stamp" ] \
  && [ -x "$home/node_modules/.bin/code-server" ]; then
  say "code-server is installed in $home"
  exit 0
fi

say "installing code-server 4.99.4 and playwright-core into $home (a few minutes; log: $log)"
rm -rf "$home/node_modules" "$home/.installed"
cp "$here/package.json" "$here/package-lock.json" "$home/"
: >"$log"
step() { # a name, then the command, run in the current directory with its output in the log
  local name=$1
  shift
  printf '\n== %s: %s (in %s)\n' "$name" "$*" "$PWD" >>"$log"
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    fail "$name: \`$*\` failed in $PWD (log: $log)"
  fi
}
npm_quiet=(--no-audit --no-fund --loglevel=error)

cd "$home"
step "code-server and playwright-core" npm ci --ignore-scripts "${npm_quiet[@]}"
cd "$home/node_modules/code-server/lib/vscode"
# npm install, not ci: its npm-shrinkwrap.json lacks a package (tslib) that npm ci insists on; the
# shrinkwrap still pins the rest.
step "VS Code's modules" npm install --omit=dev --ignore-scripts "${npm_quiet[@]}"
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sfn "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg # its postinstall skips an existing bin/
step "VS Code's native modules" env npm_config_yes=true npm rebuild "${npm_quiet[@]}"
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
cd extensions
cp "$here/vscode-extensions.package-lock.json" package-lock.json
step "the built-in extensions' modules" npm ci --omit=dev "${npm_quiet[@]}"
cd "$home"
step "argon2 (code-server's password hashing)" npm rebuild argon2 "${npm_quiet[@]}"
step "code-server --version" timeout 120 node_modules/.bin/code-server --version
echo "$stamp" >"$home/.installed"
say "installed code-server $(tail -n 1 "$log" | cut -d' ' -f1) in $home"
