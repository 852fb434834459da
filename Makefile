# The two commands of the README:
#   make run    install what is missing, build the app, serve it on http://127.0.0.1:8080
#   make test   install what is missing, then every check and test there is
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
# wasm-bindgen-test drives Debian's Chromium through chromedriver.
export CHROMEDRIVER ?= /usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON := $(CURDIR)/app/webdriver.json

# Every native cargo test command below names this same package set. Cargo resolves features per
# command, so a command naming fewer packages (or `cargo build` instead of a test build, which
# leaves dev-dependencies out) builds the shared dependencies, core and the server again with other
# features: six such rebuilds cost a clean clone about 6 minutes. Targets are chosen with --test
# and --bench instead; the e2e test target is not run by default (tests/Cargo.toml).
NATIVE := -p mosaic-core -p mosaic-server -p mosaic-e2e

.PHONY: help run test tools tools-test app server test-server lint unit deployer-venv kolla runs postgres schemathesis browser e2e app-size bench bench-test fuzz screenshot clean

help:
	@echo "make run    build everything and serve Mosaic on http://127.0.0.1:8080"
	@echo "make test   run every check and test (what CI runs)"

tools:
	@scripts/install-tools.sh build

tools-test: tools
	@scripts/install-tools.sh test

## The browser app, built by Trunk into dist/.
app: tools
	trunk build --release --offline=true --locked=true

server:
	cargo build --locked -p mosaic-server

run: app server
	@echo "Sign in at http://127.0.0.1:8080 as admin: the first start prints the password and keeps it"
	@echo "in mosaic-data/initial-admin-password. Add accounts with: mosaic user create NAME --role operator"
	cargo run --locked -q -p mosaic-server --bin mosaic -- serve

## Formatting, lints (native and wasm32), core building for wasm32, and the modules' layering.
lint: tools
	cargo fmt --all --check
	cargo clippy --locked --workspace --all-targets -- -D warnings
	cargo clippy --locked -p mosaic-app --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo check --locked -p mosaic-core --target wasm32-unknown-unknown
	@# Core stays pure: none of the IO or browser crates may enter its dependency tree.
	@if cargo tree --locked -p mosaic-core -e normal --prefix none | grep -E '^(tokio|sqlx|web-sys|gloo)'; then \
		echo "mosaic-core must not depend on tokio, sqlx, web-sys or gloo" >&2; exit 1; fi
	@# The app's pages import components, never another page (a page's own submodules excepted).
	@if grep -rnE 'crate::pages::' app/src/pages app/src/components | grep -vE '^app/src/pages/([a-z_]+)/.*crate::pages::\1::'; then \
		echo "a page or a component imports a page: move what they share to app/src/components/" >&2; exit 1; fi
	@# No loops between module files in core, the server or the app, core's layers, and wire types
	@# named through core::api only (ARCHITECTURE.md, "Layers of core"): each test also holds its own
	@# reading to made-up cases. Built as `make unit` builds them (the same packages and features).
	cargo test --locked $(NATIVE) --test loops --test layering

## Core and server tests (server tests drive the API with app().oneshot).
unit:
	cargo test --locked $(NATIVE)

## The `mosaic` binary the API and browser tests run (target/debug/mosaic), from the test build of
## the same packages as `make unit` (nothing more to build after it). `make run` builds its own.
test-server:
	cargo test --locked $(NATIVE) --no-run

## The deployer's virtual environment, as `mosaic deployer install kolla-ansible` makes it from the
## bundled release's pins (kolla-ansible 18, ansible-core 2.16, ansible-runner, PyPI's ansible 9):
## under target/deployer/, made when missing (≈ 40 s, PyPI) and reused otherwise.
deployer-venv: test-server
	scripts/deployer-venv.sh >/dev/null

## The proof by kolla-ansible's own logic (docs/deployers.md, "The proof"): the deployer's virtual
## environment, then the kolla placement test, which `cargo test` leaves out (it is ignored there:
## it needs that environment).
kolla: deployer-venv
	scripts/kolla/venv.sh >/dev/null
	cargo test --locked $(NATIVE) --test kolla -- --ignored

## Deployments run by real ansible-runner and kolla-ansible (docs/deployers.md, "Running a
## deployment"): kolla-ansible's own command lines, its syntax check of an export, kolla's
## gather-facts and Mosaic's test playbooks over a local connection (nothing on this machine
## changes), cancel, restarts; and this machine's facts gathered by that Ansible, imported and
## checked against /sys (docs/hardware.md). Ignored by `cargo test` (they need the deployer's
## environment).
runs: deployer-venv
	MOSAIC_DEPLOYER_VENV=$$(scripts/deployer-venv.sh 2>/dev/null) cargo test --locked $(NATIVE) --test runs --test hardware -- --ignored --test-threads=2

## The API tests (every test file that stores something: the list below) again on PostgreSQL (a
## throw-away server; installs Debian's postgresql when missing).
postgres:
	scripts/with-postgres.sh cargo test --locked $(NATIVE) --test api --test settings --test access --test concurrency --test lifecycle --test caching --test roles --test versions --test components --test networks --test deployers --test deployments --test hardware --test disks --test preconditions

## The API against its OpenAPI document: a real `mosaic serve`, the document validated, every
## operation called by schemathesis (PyPI, pinned, in a virtual environment under target/ made
## when missing), zero failures (scripts/schemathesis.sh, docs/api.md).
schemathesis: test-server
	MOSAIC_BIN=$(CURDIR)/target/debug/mosaic scripts/schemathesis.sh

## Component tests in headless Chromium. wasm-bindgen's runner stops chromedriver without ending
## its session, and Chromium leaves the profile it made (≈ 70 MB) in the temporary directory: it
## makes it under target/browser-tmp, emptied after every run.
browser: tools-test
	@rm -rf target/browser-tmp && mkdir -p target/browser-tmp
	TMPDIR=$(CURDIR)/target/browser-tmp cargo test --locked -p mosaic-app --target wasm32-unknown-unknown; \
	status=$$?; rm -rf target/browser-tmp; exit $$status

## The real `mosaic serve` and the built app, driven over WebDriver; a test whose browser
## crashed under it runs once more (scripts/e2e.sh says which).
e2e: tools-test app test-server deployer-venv
	MOSAIC_DEPLOYER_VENV=$$(scripts/deployer-venv.sh 2>/dev/null) scripts/e2e.sh $(NATIVE)

## A guard on the app's size: what a first visit downloads, the brotli files the server serves
## (dist's .wasm, .js, .css and index.html as NAME.br), summed, at most 650,000 bytes
## (docs/benchmarks.md, "The size guard").
app-size: app
	scripts/app-size.sh

test: tools-test lint unit kolla runs bench-test postgres schemathesis browser e2e app-size
	@echo "make test: all checks and tests passed"

## Every native benchmark once, untimed (criterion's test mode: `cargo test` runs a bench target
## without `--bench`), so that none breaks unnoticed. Built as the tests are (the dev profile, whose
## dependencies `make unit` has built), not optimized: an optimized build of core's dependencies
## would cost a fresh machine minutes for checks that time nothing.
## The WASM benchmark's runner has no test mode: its cases run once in the browser instead
## (app/tests/bench_cases.rs, in `make browser`), and `make lint` builds it.
bench-test: tools
	cargo test --locked $(NATIVE) --bench engine --bench expr --bench plan --bench disks

## Benchmarks (not part of make test): native criterion, then the same cases
## in WASM (wasm-bindgen-test's criterion port, in Node.js). See docs/benchmarks.md.
bench: tools
	cargo bench --locked -p mosaic-core --bench engine --bench expr --bench plan --bench disks
	cargo bench --locked -p mosaic-app --bench engine --target wasm32-unknown-unknown

## Long fuzz runs (not part of make test, which runs a short count of each): the YAML loader,
## the expression parser, the settings patterns' matcher, the plugin loader over archives and
## the API's JSON bodies, each for FUZZ_SECONDS, at most two at a time. See docs/fuzzing.md.
FUZZ_SECONDS ?= 600
FUZZ := cargo test --locked --profile fuzz
fuzz:
	$(FUZZ) --no-run -p mosaic-core --test yaml_fuzz --test expr_fuzz --test regex_fuzz
	$(FUZZ) --no-run -p mosaic-server --test fuzz
	export MOSAIC_FUZZ_SECONDS=$(FUZZ_SECONDS) RUST_LOG=warn; \
	$(FUZZ) -q -p mosaic-core --test yaml_fuzz -- --nocapture & yaml=$$!; \
	$(FUZZ) -q -p mosaic-core --test expr_fuzz -- --nocapture; wait $$yaml; \
	$(FUZZ) -q -p mosaic-core --test regex_fuzz -- --nocapture; \
	$(FUZZ) -q -p mosaic-server --test fuzz -- --nocapture --test-threads=2

## The README's screenshots, taken by the end-to-end tests.
screenshot: e2e
	cp target/e2e/wizard-networking.png docs/screenshot.png
	cp target/e2e/deployment-preview.png docs/deployment-preview.png
	cp target/e2e/matrix.png docs/matrix.png
	cp target/e2e/node-table.png docs/node-table.png
	cp target/e2e/networks.png docs/networks.png
	cp target/e2e/deploy.png docs/deploy.png
	cp target/e2e/deploy-run.png docs/deploy-run.png
	cp target/e2e/history.png docs/history.png
	cp target/e2e/hardware-import.png docs/hardware-import.png
	cp target/e2e/node-hardware.png docs/node-hardware.png
	cp target/e2e/configure-disks.png docs/configure-disks.png

clean:
	rm -rf dist target/stylers target/e2e
