//! The deployment preview's graph choice: with a plugin whose `graphs:`
//! record adds to the provisioning graph, choosing `provisioning` instead
//! of `default` draws the provisioning tasks.

use fantoccini::{Client, Locator};
use mosaic_e2e::repo_root;

use super::{
    Who, choose_file, click, created, eventually, open_page_as, open_preview, pick,
    save_screenshot, tarball, text_of,
};

const CHOICE: &str = "label.graph-choice select";
const TASKS: &str = ".node-plan[data-nodes~='1'] ol.tasks";

/// The tasks the preview shows for node 1 now (none while there is no
/// such group): a group's entry is made anew when its tasks change, so one
/// found may be gone before it is read.
async fn tasks(c: &Client) -> Vec<String> {
    let Ok(list) = c.find(Locator::Css(TASKS)).await else {
        return Vec::new();
    };
    let text = list.text().await.unwrap_or_default();
    text.lines().map(str::to_owned).collect()
}

#[tokio::test]
async fn the_preview_draws_the_graph_type_chosen() {
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    let fixture = repo_root().join("server/tests/fixtures/plugins/burnin");
    let (_keep, archive) = tarball(&fixture);
    choose_file(c, "input.plugin-upload", &archive).await;
    text_of(c, "[data-plugin='burnin']").await;
    click(c, ".nav a[href='/']").await;
    c.wait()
        .at_most(super::WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap()
        .send_keys("burn")
        .await
        .unwrap();
    for _ in 0..4 {
        click(c, "#next").await;
    }
    pick(c, "additional_service:burnin", "selected").await;
    click(c, "#next").await;
    click(c, "#create").await;
    created(c, "burn").await;
    click(c, ".add-node input[data-role='compute']").await;
    click(c, ".add-node-button").await;
    text_of(c, "[data-node='1'] .chip[data-tag='compute']").await;
    open_preview(c).await;

    // The default graph first: the plugin's deployment task, no provisioning.
    let options = text_of(c, CHOICE).await;
    assert!(
        options.contains("hardware burn-in (burn_in), 2 tasks")
            && options.contains("provisioning, 4 tasks"),
        "{options}"
    );
    let select = c.find(Locator::Css(CHOICE)).await.unwrap();
    assert_eq!(
        select.prop("value").await.unwrap().as_deref(),
        Some("default")
    );
    eventually("the default plan", || async {
        tasks(c).await.contains(&"burnin-sensors".to_owned())
    })
    .await;
    let default = tasks(c).await;
    assert!(default.contains(&"globals".to_owned()), "{default:?}");
    assert!(!default.contains(&"provision".to_owned()), "{default:?}");

    select.select_by_value("provisioning").await.unwrap();
    let provisioning = [
        "upload_provision_data",
        "burnin-firmware-check",
        "provision",
        "reboot_provisioned_nodes",
    ];
    eventually("the provisioning plan", || async {
        tasks(c).await == provisioning
    })
    .await;
    c.execute(
        "document.querySelector('label.graph-choice').scrollIntoView({block: 'start'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "graph-choice.png").await;

    // And back: the default graph's tasks again.
    select.select_by_value("default").await.unwrap();
    eventually("the default plan again", || async {
        tasks(c).await == default
    })
    .await;
    browser.close().await;
}
