#!/usr/bin/env bash
# The end-to-end tests (`make e2e`): the real server and the built app in
# headless Chromium. A test whose browser went away under it — Chromium's
# renderer crashed or stopped answering ("invalid session id", "Unable to
# receive message from renderer"), as CI saw once in a test that passes
# alone and in every local run — is run once more on its own; any other failure fails at
# once. Every test that needed a second run is named in the output, so a
# browser that keeps crashing on one page is seen, not hidden: a test
# that fails again fails the run.
set -euo pipefail

cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# `$@`: the cargo test arguments that select the package set (the Makefile's).
if cargo test --locked "$@" --test e2e 2>&1 | tee "$log"; then
    exit 0
fi

# The tests that failed, from libtest's summary.
failed=$(awk '/^failures:$/ { n++; next } n == 2 && /^    [a-z_:]+$/ { print $1 }' "$log")
if [ -z "$failed" ]; then
    echo "e2e: the run failed before any test did" >&2
    exit 1
fi

# Each one's output must show the browser lost, and nothing else wrong.
lost='invalid session id|Unable to receive message from renderer|chrome not reachable|session deleted'
for test in $failed; do
    section=$(awk -v t="---- $test stdout ----" '$0 == t { on = 1; next } on && /^---- / { exit } on && /^failures:$/ { exit } on' "$log")
    if ! grep -Eq "$lost" <<<"$section"; then
        echo "e2e: $test failed on its own account: not run again" >&2
        exit 1
    fi
done

for test in $failed; do
    echo "e2e: $test lost its browser; running it once more" >&2
    cargo test --locked "$@" --test e2e -- --exact "$test"
done
