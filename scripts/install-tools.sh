#!/usr/bin/env bash
# Installs what building and testing Mosaic needs, skipping whatever is
# already there at the right version. One line per step. Everything comes
# from package registries (crates.io, npm, Debian), nothing from elsewhere.
#
#   scripts/install-tools.sh build   wasm target, Trunk, wasm-bindgen CLI, wasm-opt, terser, Swagger UI
#   scripts/install-tools.sh test    Chromium, chromedriver and axe-core (for the browser tests)
#   scripts/install-tools.sh all     both
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14          # 0.22 needs a newer rustc than this machine's
BINARYEN_VERSION=132           # npm binaryen, pinned in package.json
AXE_VERSION=4.14.1             # npm axe-core, pinned in package.json
TERSER_VERSION=5.51.2          # npm terser (Trunk's JS minifier hook), pinned in package.json
SWAGGER_UI_VERSION=5.35.0      # npm swagger-ui-dist (the API's page, /api/docs), pinned in package.json
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

say() { printf 'tools: %s\n' "$*"; }

# The wasm-bindgen CLI must match the wasm-bindgen crate exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

install_build_tools() {
  if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "wasm32-unknown-unknown target present"
  else
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi

  if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
    say "trunk $TRUNK_VERSION present"
  else
    # Built unoptimized (--debug): Trunk's release profile (fat LTO, one codegen unit) took a
    # fresh machine 8 to 12 minutes, --debug about 7 on this 2-core kind, and Trunk's own work
    # in a build (hashing, copying, CSS) costs a few seconds more for it; the heavy steps are
    # cargo, wasm-bindgen and wasm-opt, which run optimized (docs/benchmarks.md, "CI time").
    say "installing trunk $TRUNK_VERSION from crates.io (several minutes)"
    cargo install --debug --locked --quiet trunk --version "$TRUNK_VERSION"
  fi

  local wbg
  wbg=$(wasm_bindgen_version)
  if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $wbg" ] &&
     command -v wasm-bindgen-test-runner >/dev/null; then
    say "wasm-bindgen-cli $wbg present"
  else
    # Not --locked: its lockfile pins a crate version the registry no longer serves.
    # Without default features: they are only TLS (rustls and ring) for ureq, and the test
    # runner talks to chromedriver over plain HTTP on localhost.
    say "installing wasm-bindgen-cli $wbg from crates.io (a few minutes)"
    cargo install --force --quiet --no-default-features wasm-bindgen-cli --version "$wbg"
  fi

  if wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION" &&
     grep -q "\"version\": \"$TERSER_VERSION\"" node_modules/terser/package.json 2>/dev/null &&
     grep -q "\"version\": \"$SWAGGER_UI_VERSION\"" node_modules/swagger-ui-dist/package.json 2>/dev/null; then
    say "wasm-opt $BINARYEN_VERSION, terser $TERSER_VERSION and swagger-ui-dist $SWAGGER_UI_VERSION present"
  else
    say "installing wasm-opt, terser and Swagger UI (npm binaryen@$BINARYEN_VERSION, terser@$TERSER_VERSION, swagger-ui-dist@$SWAGGER_UI_VERSION)"
    # --ignore-scripts: swagger-ui-dist's dependency @scarf/scarf would report the install.
    npm ci --no-audit --no-fund --silent --ignore-scripts
  fi

  # Trunk builds offline, so every crate must be in the local registry first.
  say "fetching crates"
  cargo fetch --locked --quiet
}

install_test_tools() {
  if grep -q "\"version\": \"$AXE_VERSION\"" node_modules/axe-core/package.json 2>/dev/null; then
    say "axe-core $AXE_VERSION present"
  else
    say "installing axe-core $AXE_VERSION (npm) for the accessibility checks"
    npm ci --no-audit --no-fund --silent --ignore-scripts
  fi

  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    say "chromium and chromedriver present"
  else
    say "installing chromium and chromium-driver from Debian"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
  fi
}

case "${1:-build}" in
  build) install_build_tools ;;
  test) install_test_tools ;;
  all) install_build_tools; install_test_tools ;;
  *) echo "usage: $0 [build|test|all]" >&2; exit 2 ;;
esac
