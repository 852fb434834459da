//! The API's page (`/api/docs`, issue 41): Swagger UI, served by `mosaic
//! serve` from the build, renders every operation of the served document
//! in a real browser, under the server's Content-Security-Policy, loading
//! nothing from elsewhere. Its screenshot is `target/e2e/api-docs.png`.

use std::collections::BTreeSet;

use fantoccini::Locator;
use mosaic_e2e::{Browser, Server};
use serde_json::{Value, json};

use super::{WAIT, eventually, save_screenshot};

/// Notes every Content-Security-Policy violation in `window.__violations`.
const WATCH_VIOLATIONS: &str = r#"
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"#;

/// `METHOD path` of every operation in the document the server serves.
const DOCUMENTED: &str = r#"
const done = arguments[0];
fetch("/api/v1/openapi.json").then((r) => r.json()).then((d) => {
  const out = [];
  for (const [path, item] of Object.entries(d.paths)) {
    for (const method of Object.keys(item)) out.push(`${method.toUpperCase()} ${path}`);
  }
  done(out);
});
"#;

/// `METHOD path` of every operation the page shows.
const SHOWN: &str = r#"
return [...document.querySelectorAll(".opblock")].map((block) => {
  const method = block.querySelector(".opblock-summary-method").textContent.trim();
  const path = block.querySelector(".opblock-summary-path").getAttribute("data-path");
  return `${method} ${path}`;
});
"#;

/// Where everything the page loaded came from.
const ORIGINS: &str = r#"
return [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
  .map((e) => new URL(e.name).origin);
"#;

fn strings(value: Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_api_page_shows_every_operation_of_the_document() {
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": WATCH_VIOLATIONS}),
        )
        .await;
    let c = &browser.client;
    c.goto(&format!("{}/api/docs", server.url)).await.unwrap();
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css(".opblock"))
        .await
        .expect("Swagger UI's operations");
    let documented = strings(c.execute_async(DOCUMENTED, vec![]).await.unwrap());
    assert!(documented.len() > 40, "{documented:?}");
    eventually("every operation shown", || async {
        strings(c.execute(SHOWN, vec![]).await.unwrap()) == documented
    })
    .await;
    let title = c
        .find(Locator::Css(".info .title"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(title.starts_with("Mosaic"), "{title}");
    let violations = c
        .execute("return window.__violations", vec![])
        .await
        .unwrap();
    assert_eq!(violations, json!([]), "the page broke the server's CSP");
    let origins = strings(c.execute(ORIGINS, vec![]).await.unwrap());
    assert_eq!(
        origins,
        BTreeSet::from([server.url.clone()]),
        "loaded from elsewhere"
    );
    save_screenshot(c, "api-docs.png").await;

    // An operation opened: its parameters and every answer with its shape.
    let operation = "#operations-nodes-update_node";
    c.find(Locator::Css(&format!("{operation} .opblock-summary")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let responses = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(&format!("{operation} .responses-table")))
        .await
        .expect("the operation's answers");
    let text = responses.text().await.unwrap();
    for status in ["200", "400", "401", "403", "404", "409", "412"] {
        assert!(text.contains(status), "{status} missing from: {text}");
    }
    c.execute(
        "document.querySelector(arguments[0]).scrollIntoView()",
        vec![json!(operation)],
    )
    .await
    .unwrap();
    save_screenshot(c, "api-docs-operation.png").await;
    browser.close().await;
}
