//! Accounts in the browser: the sign-in page, who is signed in, signing
//! out, what a viewer is not offered, and the audit log of what the
//! operator did.

use fantoccini::Locator;
use mosaic_e2e::{Browser, Server};
use serde_json::Value;

use super::{WAIT, Who, click, eventually, sign_in, text_of};

#[tokio::test]
async fn signing_in_and_out_and_what_the_audit_log_keeps() {
    let server = Server::start();
    let browser = Browser::start().await;
    let c = &browser.client;
    c.goto(&server.url).await.unwrap();
    eventually("the sign-in page's title", || async {
        c.title().await.unwrap() == "Sign in — Mosaic"
    })
    .await;
    // A wrong password is refused with a message, and nothing else shows.
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Id("username"))
        .await
        .unwrap()
        .send_keys("operator")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("not the password")
        .await
        .unwrap();
    click(c, "#sign-in").await;
    let error = text_of(c, "[data-page='sign-in'] .notice-error").await;
    assert!(error.contains("wrong password"), "{error}");
    assert!(c.find(Locator::Css(".topbar .nav")).await.is_err());
    c.refresh().await.unwrap();
    sign_in(c, &server, Who::Operator).await;
    assert_eq!(text_of(c, ".account .who").await, "operator (operator)");
    // A change through the app is recorded with who made it.
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap()
        .send_keys("audited")
        .await
        .unwrap();
    for _ in 0..5 {
        click(c, "#next").await;
    }
    click(c, "#create").await;
    text_of(c, "[data-page='environment'] .add-node").await;
    let log: Value =
        serde_json::from_str(&server.mosaic_with_stdin(&["audit", "--format", "json"], ""))
            .unwrap();
    let lines: Vec<String> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{} {} {}",
                e["actor"].as_str().unwrap(),
                e["method"].as_str().unwrap(),
                e["target"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        lines[..2],
        [
            "operator POST /api/v1/clusters",
            "operator POST /api/v1/session"
        ],
        "{lines:#?}"
    );
    click(c, ".account .sign-out").await;
    text_of(c, "[data-page='sign-in']").await;
    // Signed out for the server too: a reload asks again.
    c.refresh().await.unwrap();
    text_of(c, "[data-page='sign-in']").await;
    browser.close().await;
}

#[tokio::test]
async fn a_viewer_is_not_offered_what_the_role_cannot_do() {
    let server = Server::start();
    server.mosaic_with_stdin(
        &["user", "create", "vera", "--role", "viewer"],
        "viewer password ok",
    );
    let browser = Browser::start().await;
    let c = &browser.client;
    c.goto(&format!("{}/plugins", server.url)).await.unwrap();
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Id("username"))
        .await
        .unwrap()
        .send_keys("vera")
        .await
        .unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys("viewer password ok")
        .await
        .unwrap();
    click(c, "#sign-in").await;
    text_of(c, "[data-plugin='openstack']").await;
    assert!(c.find(Locator::Css("input.plugin-upload")).await.is_err());
    let uninstall = "[data-plugin='openstack'] button.uninstall";
    assert!(c.find(Locator::Css(uninstall)).await.is_err());
    click(c, ".nav a[href='/']").await;
    text_of(c, "[data-role-note]").await;
    eventually("no wizard for a viewer", || async {
        c.find(Locator::Id("environment-name")).await.is_err()
    })
    .await;
    browser.close().await;
}
