#!/usr/bin/env bash
# Installs code-server (VS Code served to a browser, from the npm registry) into
# .tools/code-server, for the desktop's `vscode` app. Safe to run again; quiet when it is there.
#
# Why this version: code-server 4.100.3 (VS Code 1.100.3) is the newest release whose
# postinstall accepts Node.js 20, the machine's Node.js (4.103 and later want 22, 4.133 and
# later 24). Its postinstall builds native modules (node-pty, kerberos, spdlog...) with
# node-gyp against the installed Node's headers, and fetches ripgrep from GitHub, which is
# not reachable here: the ripgrep of Debian's package is put in the cache its postinstall
# looks in first.
set -euo pipefail
cd "$(dirname "$0")/.."

CS_VERSION="4.100.3"
RG_PACKAGE_VERSION="1.15.11"   # the @vscode/ripgrep that code-server 4.100.3 pins (its npm-shrinkwrap.json)
RG_ASSET_VERSION="v13.0.0-10"  # the ripgrep build that @vscode/ripgrep 1.15.11 downloads
PREFIX=".tools/code-server"
ENTRY="$PREFIX/node_modules/code-server/out/node/entry.js"
STAMP="$PREFIX/.installed-$CS_VERSION"
BRAND_REVISION=3               # raise when brand_as_vs_code changes: installs re-brand, no rebuild
BRAND_STAMP="$PREFIX/.branded-$BRAND_REVISION"

if [ -f "$STAMP" ] && [ -f "$ENTRY" ] && [ -f "$BRAND_STAMP" ]; then
  exit 0
fi

# What makes the served VS Code start like the desktop one OSWorld's tasks were made on: a
# built-in extension gives defaults (not user settings: ~/.config/Code/User/settings.json stays
# the user's own, which tasks check):
# * the desktop's default theme, Dark Modern (the web's is Light Modern);
# * window titles ending with "Visual Studio Code" as the desktop's do (tasks activate the
#   window "Visual Studio Code", "test.py - Visual Studio Code"). Extensions' defaults apply
#   once VS Code has registered its extensions, and not before: the window is titled so only
#   when its commands are there (the command palette lists none before), which is what a
#   desktop session waits for after a launch.
# The rest (no welcome page; telemetry, update checks and workspace trust off) is per
# episode: gui_agent/envs/desktop/apps/vscode.py.
brand_as_vs_code() {
  local vscode="$1"
  mkdir -p "$vscode/extensions/gui-agent-defaults"
  cat > "$vscode/extensions/gui-agent-defaults/package.json" <<'JSON'
{
  "name": "gui-agent-defaults",
  "displayName": "Desktop defaults",
  "description": "The defaults of VS Code desktop where the web's differ: the Dark Modern theme, the window title.",
  "publisher": "gui-agent",
  "version": "1.0.0",
  "license": "MIT",
  "engines": {"vscode": "^1.80.0"},
  "contributes": {
    "configurationDefaults": {
      "workbench.colorTheme": "Default Dark Modern",
      "window.title": "${dirty}${activeEditorShort}${separator}${rootName}${separator}${profileName}${separator}Visual Studio Code"
    }
  }
}
JSON
}

install_code_server() {
  # Build tools and the libraries the native modules link against (code-server's docs/npm.md).
  APT_PACKAGES=(g++ make pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep)
  command -v node >/dev/null 2>&1 || APT_PACKAGES+=(nodejs)
  command -v npm >/dev/null 2>&1 || APT_PACKAGES+=(npm)
  missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "install_code_server: installing apt packages: ${missing[*]}"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi

  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  force=()
  if [ "$node_major" != "20" ]; then
    echo "install_code_server: code-server $CS_VERSION wants Node.js 20, this is $node_major; forcing it" >&2
    force=(FORCE_NODE_VERSION="$node_major")
  fi
  node_dir="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"   # /usr for /usr/bin/node

  echo "install_code_server: installing code-server $CS_VERSION into $PREFIX (a few minutes)"
  rm -rf "$PREFIX"
  mkdir -p "$PREFIX/tmp"
  # ripgrep: @vscode/ripgrep's postinstall uses a cached download when there is one.
  rg_cache="$PREFIX/tmp/vscode-ripgrep-cache-$RG_PACKAGE_VERSION"
  mkdir -p "$rg_cache" "$PREFIX/tmp/rg"
  cp "$(command -v rg)" "$PREFIX/tmp/rg/rg"
  for target in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
    tar czf "$rg_cache/ripgrep-$RG_ASSET_VERSION-$target.tar.gz" -C "$PREFIX/tmp/rg" rg
  done
  echo '{"private": true}' > "$PREFIX/package.json"
  log="$PREFIX/install.log"
  if ! env "${force[@]}" TMPDIR="$PWD/$PREFIX/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
       npm_config_nodedir="$node_dir" npm_config_update_notifier=false \
       npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION" >"$log" 2>&1; then
    tail -40 "$log"
    echo "install_code_server: npm install code-server@$CS_VERSION failed (output above, all of it in $log)" >&2
    exit 1
  fi
  # --version writes a default config file under $XDG_CONFIG_HOME: keep it in the scratch folder.
  if ! HOME="$PWD/$PREFIX/tmp" XDG_CONFIG_HOME="$PWD/$PREFIX/tmp" node "$ENTRY" --version >/dev/null 2>&1 </dev/null; then
    echo "install_code_server: code-server was installed but does not start: node $ENTRY --version" >&2
    exit 1
  fi
  rm -rf "$PREFIX/tmp"
  touch "$STAMP"
  echo "install_code_server: code-server $CS_VERSION installed"
}

if [ ! -f "$STAMP" ] || [ ! -f "$ENTRY" ]; then
  install_code_server
fi
rm -f "$PREFIX"/.branded-*
brand_as_vs_code "$PREFIX/node_modules/code-server/lib/vscode"
touch "$BRAND_STAMP"
