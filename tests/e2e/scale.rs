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
use super::{Who, click, create_environment_as, eventually, text_of};

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
/// render of its Nodes tab, then its Deployment preview tab; then tags a
/// rack's nodes at once, timing the click to the updated table.
async fn measure(c: &Client, url: &str, id: i64, count: usize) {
    for round in 0..3 {
        let started = Instant::now();
        c.goto(&format!("{url}/environments/{id}")).await.unwrap();
        let table = time_until(c, "tr.node-row", started).await;
        let started = Instant::now();
        c.goto(&format!("{url}/environments/{id}/preview"))
            .await
            .unwrap();
        let preview = time_until(c, ".plan-group", started).await;
        println!(
            "scale: round {round}: first render with {count} nodes: table {table:?}, preview tab {preview:?}"
        );
    }
    c.goto(&format!("{url}/environments/{id}")).await.unwrap();
    let (took, requests) = tag_a_rack(c, "rack249-").await;
    let wire: u64 = requests.iter().map(|r| r.1).sum();
    let decoded: u64 = requests.iter().map(|r| r.2).sum();
    println!(
        "scale: bulk tag change on a rack of {count} nodes, click to updated table: {took:?}; \
         {} requests, {wire} bytes on the wire, {decoded} decoded: {requests:?}",
        requests.len()
    );
}

/// Shows the nodes whose name starts with `rack`, tags them all with
/// RabbitMQ in one bulk change, and waits until the table shows it and
/// every request the page makes after it has answered: the time from the
/// click to the updated table, and those requests.
async fn tag_a_rack(c: &Client, rack: &str) -> (Duration, Vec<Request>) {
    time_until(c, "tr.node-row", Instant::now()).await;
    let name = c.find(Locator::Css("input.filter-name")).await.unwrap();
    name.send_keys(rack).await.unwrap();
    eventually("the rack alone", || async {
        text_of(c, ".node-count").await.contains("filtered from")
    })
    .await;
    click(c, "input.select-all").await;
    let field = c.find(Locator::Css(".bulk-tags")).await.unwrap();
    field.send_keys("rabbitmq").await.unwrap();
    c.execute(
        "performance.setResourceTimingBufferSize(10000); performance.clearResourceTimings();",
        vec![],
    )
    .await
    .unwrap();
    let started = Instant::now();
    click(c, "button.bulk-assign").await;
    let changed = time_until(c, "tr.node-row .chip[data-tag='rabbitmq']", started).await;
    // The follow-ups (the roles, tags and checks the change may change).
    eventually("the requests after the change answered", || async {
        let now = requests(c).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let later = requests(c).await;
        later.iter().any(|r| r.0.ends_with("/checks")) && now == later
    })
    .await;
    (changed, requests(c).await)
}

/// A request the page made: its path, the bytes on the wire (compressed)
/// and the bytes of its answer (decoded, what the app parses).
type Request = (String, u64, u64);

/// The requests the page made since the network log was last cleared.
async fn requests(c: &Client) -> Vec<Request> {
    let entries = c
        .execute(
            "return performance.getEntriesByType('resource')
               .filter(e => e.initiatorType === 'fetch')
               .map(e => [new URL(e.name).pathname + new URL(e.name).search,
                          e.transferSize, e.decodedBodySize]);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(entries).unwrap()
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

/// Issue 42's acceptance: a bulk tag change on a rack of a 10,000-node
/// environment asks for neither every node nor the plan (the browser's
/// network log): the change's answer updates the rows it changed.
#[tokio::test]
async fn a_bulk_change_on_ten_thousand_nodes_fetches_no_node_list_and_no_plan() {
    let (_server, browser, _) = create_environment_as("scale", Who::Admin).await;
    let c = &browser.client;
    let id = import_nodes(c, "ten-thousand", 10_000).await;
    let url = c.current_url().await.unwrap();
    c.goto(url.join(&format!("/environments/{id}")).unwrap().as_str())
        .await
        .unwrap();
    let (_, requests) = tag_a_rack(c, "rack249-").await;
    let paths: Vec<&str> = requests.iter().map(|r| r.0.as_str()).collect();
    assert!(
        paths.contains(&format!("/api/v1/clusters/{id}/nodes/bulk").as_str()),
        "{paths:?}"
    );
    let listed = |p: &&str| p.ends_with("/nodes") || p.contains("/plan");
    assert!(!paths.iter().any(listed), "{paths:?}");
    // The rack's forty nodes changed, and only those rows.
    assert_eq!(
        c.find_all(Locator::Css("tr.node-row .chip[data-tag='rabbitmq']"))
            .await
            .unwrap()
            .len(),
        40
    );
    browser.close().await;
}
