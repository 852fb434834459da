//! What a visit to the wizard costs a browser (issue 29, docs/benchmarks.md
//! "What a visit costs"). Checks, since they follow from how the app is
//! built and served, not from the machine's speed: the app arrives
//! compressed on a first visit, and a repeat visit downloads no asset
//! again. Measured, run on purpose against an optimized server: the time
//! to a usable wizard at 10 Mbit/s and 40 ms round trips, and the bytes on
//! the wire of that first visit against issue 29's budget of 450,000; the
//! same for a first visit to an environment's Nodes tab. One at a time
//! (`--test-threads=1`): two browsers at once share the machine and time
//! each other.
//!
//!     cargo build --release -p mosaic-server && make app
//!     MOSAIC_BIN=$PWD/target/release/mosaic cargo test -p mosaic-e2e --test e2e -- --ignored --nocapture --test-threads=1 first_visit
//!
//! Bytes are the Resource Timing API's `transferSize` (headers and the
//! body as sent, compressed) summed over the document and everything it
//! loaded, the API's answers included. The wizard is usable when its Next
//! button is on the page; a script installed before the page's own notes
//! when that happens (`performance.now()`, from the start of navigation).

use std::time::Duration;

use fantoccini::Locator;
use mosaic_e2e::Browser;
use serde_json::{Value, json};

use super::admin::create_nodes;
use super::{Who, create_environment_as, open_page_as};

/// What a first visit should download at most (issue 29).
const BUDGET_BYTES: u64 = 450_000;

/// Notes in `window.__usable` when the first element `css` selects
/// appears (`performance.now()`, from the start of navigation).
fn watch_usable(css: &str) -> String {
    format!(
        r#"
window.__usable = null;
new MutationObserver((_, observer) => {{
  if (window.__usable === null && document.querySelector({css:?})) {{
    window.__usable = performance.now();
    observer.disconnect();
  }}
}}).observe(document, {{childList: true, subtree: true}});
"#
    )
}

/// The wizard is usable when its Next button is on the page.
const WIZARD_USABLE: &str = "[data-page='wizard'] #next";

/// An environment's Nodes tab is usable when its first node row is.
const NODES_USABLE: &str = "[data-page='environment'] tr.node-row";

/// Every resource of the page: its URL, what it cost on the wire, and
/// where it came from.
const RESOURCES: &str = r#"
const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
return {
  usable: window.__usable,
  resources: entries.map(e => ({
    name: e.name, transfer: e.transferSize, body: e.decodedBodySize,
    start: Math.round(e.startTime), end: Math.round(e.responseEnd),
  })),
};
"#;

/// Opens the wizard in a new navigation and waits until it is usable: the
/// milliseconds it took and the resources it loaded.
async fn visit(browser: &Browser, url: &str) -> (f64, Vec<Value>) {
    visit_until(browser, url, WIZARD_USABLE).await
}

/// Opens `url` in a new navigation and waits until `usable` selects an
/// element (the watcher `cold_and_watched` installed for the same selector).
async fn visit_until(browser: &Browser, url: &str, usable: &str) -> (f64, Vec<Value>) {
    let c = &browser.client;
    c.goto("about:blank").await.unwrap();
    c.goto(url).await.unwrap();
    c.wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Css(usable))
        .await
        .unwrap_or_else(|e| panic!("{usable} on {url}: {e}"));
    let found = c.execute(RESOURCES, vec![]).await.unwrap();
    let usable = found["usable"]
        .as_f64()
        .expect("the time the wizard became usable");
    (usable, found["resources"].as_array().unwrap().clone())
}

fn bytes(resources: &[Value]) -> u64 {
    resources
        .iter()
        .map(|r| r["transfer"].as_u64().unwrap_or(0))
        .sum()
}

/// The app's own files (not the document, not the API's answers).
fn is_asset(resource: &Value) -> bool {
    let name = resource["name"].as_str().unwrap_or_default();
    [".wasm", ".js", ".css", ".svg"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Signed in, with the cache off and the wizard's watcher installed for
/// every page.
async fn prepared(who: Who) -> (mosaic_e2e::Server, Browser) {
    let (server, browser) = open_page_as("/", who).await;
    cold_and_watched(&browser, WIZARD_USABLE).await;
    (server, browser)
}

/// The cache off, and a watcher for `usable` installed for every page.
async fn cold_and_watched(browser: &Browser, usable: &str) {
    browser.cdp("Network.enable", json!({})).await;
    browser
        .cdp("Network.setCacheDisabled", json!({"cacheDisabled": true}))
        .await;
    browser
        .cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": watch_usable(usable)}),
        )
        .await;
}

#[tokio::test]
async fn the_app_arrives_compressed_and_a_repeat_visit_downloads_no_asset() {
    let (server, browser) = prepared(Who::Operator).await;
    let url = format!("{}/", server.url);
    let (_, cold) = visit(&browser, &url).await;
    let wasm = cold
        .iter()
        .find(|r| r["name"].as_str().unwrap().ends_with(".wasm"))
        .unwrap_or_else(|| panic!("the first visit loads the app: {cold:#?}"));
    let (sent, size) = (
        wasm["transfer"].as_u64().unwrap(),
        wasm["body"].as_u64().unwrap(),
    );
    assert!(
        sent * 2 < size,
        "the app's {size} bytes of WebAssembly arrive as {sent}: not compressed"
    );
    // The pages split off by route are fetched when first opened, not here.
    let lazy: Vec<&Value> = cold
        .iter()
        .filter(|r| {
            let name = r["name"].as_str().unwrap_or_default();
            name.contains("/split_") || name.contains("/chunk_")
        })
        .collect();
    assert!(
        lazy.is_empty(),
        "the first visit fetched lazy pages: {lazy:#?}"
    );
    // index.html asks who is signed in, and the releases, while the app
    // downloads; the app's own requests are answered from those, not sent
    // again.
    for path in ["/api/v1/session", "/api/v1/releases"] {
        let asked: Vec<&Value> = cold
            .iter()
            .filter(|r| r["name"].as_str().unwrap_or_default().ends_with(path))
            .collect();
        assert_eq!(asked.len(), 1, "{path} is asked for once: {cold:#?}");
        assert!(
            asked[0]["start"].as_f64().unwrap() < wasm["end"].as_f64().unwrap(),
            "{path} is asked for while the app downloads: {cold:#?}"
        );
    }

    browser
        .cdp("Network.setCacheDisabled", json!({"cacheDisabled": false}))
        .await;
    // Once more with the cache on, to fill it; then the visit that counts.
    visit(&browser, &url).await;
    let (_, warm) = visit(&browser, &url).await;
    let downloaded: Vec<&Value> = warm
        .iter()
        .filter(|r| is_asset(r) && r["transfer"].as_u64().unwrap_or(0) > 0)
        .collect();
    assert!(
        downloaded.is_empty(),
        "a repeat visit downloaded assets again: {downloaded:#?}"
    );
    assert!(warm.iter().any(is_asset), "{warm:#?}");
    browser.close().await;
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored (see the module's doc)"]
async fn first_visit_at_ten_megabits_and_forty_milliseconds() {
    let (server, browser) = prepared(Who::Operator).await;
    throttled(&browser).await;
    let url = format!("{}/", server.url);
    for round in 0..5 {
        let (usable, resources) = visit(&browser, &url).await;
        report("usable wizard", round, usable, &resources);
    }
    browser.close().await;
}

/// The same for an environment's page opened first (a bookmark, a link):
/// its Nodes tab with twenty nodes, whose module is fetched when the app
/// runs (app/src/routes.rs).
#[tokio::test]
#[ignore = "a measurement: run with --ignored (see the module's doc)"]
async fn first_visit_to_an_environment_at_ten_megabits_and_forty_milliseconds() {
    let (server, browser, _) = create_environment_as("first-visit", Who::Operator).await;
    create_nodes(&browser.client, 1, 20).await;
    cold_and_watched(&browser, NODES_USABLE).await;
    throttled(&browser).await;
    let url = format!("{}/environments/1", server.url);
    for round in 0..5 {
        let (usable, resources) = visit_until(&browser, &url, NODES_USABLE).await;
        report("usable Nodes tab", round, usable, &resources);
    }
    browser.close().await;
}

/// 10 Mbit/s both ways and 40 ms round trips.
async fn throttled(browser: &Browser) {
    browser
        .cdp(
            "Network.emulateNetworkConditions",
            json!({
                "offline": false,
                "latency": 40,
                "downloadThroughput": 10_000_000 / 8,
                "uploadThroughput": 10_000_000 / 8,
            }),
        )
        .await;
}

/// Prints a visit's time and bytes; the first round's requests one by one.
fn report(what: &str, round: usize, usable: f64, resources: &[Value]) {
    let total = bytes(resources);
    println!(
        "first_visit: round {round}: {what} after {usable:.0} ms, {total} bytes in {} requests (budget {BUDGET_BYTES})",
        resources.len()
    );
    if round == 0 {
        for r in resources {
            println!(
                "first_visit:   {:>5}–{:>5} ms {:>9} bytes (decoded {:>9})  {}",
                r["start"], r["end"], r["transfer"], r["body"], r["name"]
            );
        }
    }
}
