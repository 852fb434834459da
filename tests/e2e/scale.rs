//! How the environment page copes with a thousand and with ten thousand
//! nodes (docs/benchmarks.md):
//! the first render and a bulk tag change on every node, timed in headless
//! Chromium from the click to the updated page. A measurement, not a
//! check: run it on purpose, against an optimized server,
//!
//!     cargo build --release -p mosaic-server && make app
//!     MOSAIC_BIN=$PWD/target/release/mosaic cargo test -p mosaic-e2e --test e2e -- --ignored --nocapture scale

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};

use super::admin::{create_nodes, import_nodes};
use super::{Who, click, create_environment_as, text_of};

/// Waits for `css` polling every 5 ms; the time it took.
async fn time_until(c: &Client, css: &str, started: Instant) -> Duration {
    c.wait()
        .at_most(Duration::from_secs(60))
        .every(Duration::from_millis(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    started.elapsed()
}

/// Opens environment `id` (of `count` nodes) three times, timing the first
/// render, then tags every node at once, timing the click to the updated
/// table.
async fn measure(c: &Client, url: &str, id: i64, count: usize) {
    for round in 0..3 {
        let started = Instant::now();
        c.goto(&format!("{url}/environments/{id}")).await.unwrap();
        let table = time_until(c, "tr.node-row", started).await;
        let preview = time_until(c, ".plan-group", started).await;
        println!(
            "scale: round {round}: first render with {count} nodes: table {table:?}, preview {preview:?}"
        );
    }
    click(c, "input.select-all").await;
    let field = c.find(Locator::Css(".bulk-tags")).await.unwrap();
    field.send_keys("rabbitmq").await.unwrap();
    let started = Instant::now();
    click(c, "button.bulk-assign").await;
    let changed = time_until(c, "tr.node-row .chip[data-tag='rabbitmq']", started).await;
    println!("scale: bulk tag change on {count} nodes, click to updated table: {changed:?}");
    assert!(
        text_of(c, ".node-count")
            .await
            .contains(&format!("{count} selected"))
    );
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored (see the module's doc)"]
async fn scale_the_environment_page_with_a_thousand_nodes() {
    let (server, browser, _) = create_environment_as("scale", Who::Admin).await;
    let c = &browser.client;
    create_nodes(c, 1, 1000).await;
    measure(c, &server.url, 1, 1000).await;
    browser.close().await;
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored (see the module's doc)"]
async fn scale_the_environment_page_with_ten_thousand_nodes() {
    let (server, browser, _) = create_environment_as("scale", Who::Admin).await;
    let c = &browser.client;
    let started = Instant::now();
    let id = import_nodes(c, "ten-thousand", 10_000).await;
    println!(
        "scale: import of 10000 nodes from the page: {:?}",
        started.elapsed()
    );
    measure(c, &server.url, id, 10_000).await;
    browser.close().await;
}
