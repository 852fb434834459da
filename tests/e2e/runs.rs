//! Deployments from the browser (issue 50, parts 8 and 9j): on the Deploy
//! tab an operator chooses kolla-ansible's own `gather-facts` over a local
//! connection, sees what it will run, starts it, and watches the live view
//! reach the run's end — real ansible-runner and kolla-ansible, from the
//! deployer's virtual environment (`make e2e` names it) — then opens the
//! History tab: the run, each host's counts and every task on every node.

use fantoccini::{Client, Locator};
use serde_json::json;

use super::components::api;
use super::{click, create_environment, eventually, save_screenshot, text_of};

async fn node(c: &Client, name: &str, roles: &[&str]) {
    let ports = json!({"interfaces": [{"name": "eth0"}, {"name": "eth1"}, {"name": "eth2"}]});
    let body = json!({"name": name, "roles": roles, "interfaces": ports});
    api(c, "POST", "/api/v1/clusters/1/nodes", body).await;
}

/// Waits (up to two minutes: Ansible runs) until `css` matches.
async fn until(c: &Client, what: &str, css: &str) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    while tokio::time::Instant::now() < deadline {
        if c.find(Locator::Css(css)).await.is_ok() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    panic!("timed out waiting for {what} ({css})");
}

#[tokio::test]
async fn an_operator_runs_gather_facts_watches_it_live_and_reads_its_history() {
    assert!(
        std::env::var_os("MOSAIC_DEPLOYER_VENV").is_some(),
        "MOSAIC_DEPLOYER_VENV names the deployer's virtual environment (make e2e sets it)"
    );
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    text_of(c, ".node-count").await;
    node(c, "ctl-1", &["controller"]).await;
    node(c, "cmp-1", &["compute"]).await;
    node(c, "cmp-2", &["compute"]).await;
    click(c, ".tabs a[href='/environments/1/deploy']").await;
    assert_eq!(text_of(c, ".environment-status").await, "Status: New");

    // Some actions: gather-facts (checked first), over a local connection.
    click(c, ".run-start .run-kind:nth-of-type(3) input").await;
    let connection = c
        .find(Locator::Css(".run-start .connection select"))
        .await
        .unwrap();
    connection.select_by_value("local").await.unwrap();
    click(c, ".run-start .preview-run").await;
    eventually("the plan", || async {
        text_of(c, ".run-plan")
            .await
            .contains("gather-facts on every host")
    })
    .await;
    assert!(
        text_of(c, ".run-plan")
            .await
            .contains("No node's status changes")
    );
    click(c, ".run-start .start-run").await;

    until(c, "the live view", ".live-run").await;
    until(c, "the run's end", ".live-run[data-status='successful']").await;
    eventually("every host ok", || async {
        text_of(c, ".run-hosts-table tr[data-host='cmp-2'] .host-state").await == "ok"
    })
    .await;
    assert_eq!(
        text_of(c, ".live-run .run-steps").await,
        "gather-facts — successful (exit 0)"
    );
    assert_eq!(text_of(c, ".run-progress progress").await, "100");
    assert!(
        c.find(Locator::Css(".live-run .stop")).await.is_err(),
        "no Stop once it ended"
    );
    save_screenshot(c, "deploy-run.png").await;
    // The form is back for the next run; facts changed no status.
    until(c, "the form again", ".run-start").await;
    assert_eq!(text_of(c, ".environment-status").await, "Status: New");
    super::accessibility::assert_clean(c, "deploy").await;

    click(c, ".tabs a[href='/environments/1/history']").await;
    eventually("the run in the history", || async {
        text_of(c, ".runs-table tr[data-run='1'] .run-status").await == "successful"
    })
    .await;
    eventually("the facts of each node", || async {
        text_of(c, ".history-table")
            .await
            .matches("Gather facts")
            .count()
            >= 3
    })
    .await;
    assert!(
        text_of(c, ".run-recap tr[data-host='ctl-1']")
            .await
            .starts_with("ctl-1")
    );
    let csv = c
        .find(Locator::Css(".download-history"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(csv.contains("format=csv"), "{csv}");
    save_screenshot(c, "history.png").await;
    super::accessibility::assert_clean(c, "history").await;
    browser.close().await;
}
