//! The compatibility matrix page: the seed's table for a release, reached
//! from the wizard, with filters by type and a highlighted component.

use fantoccini::{Client, Locator};

use super::{click, eventually, open_wizard, save_screenshot, text_of};

fn cell(row: &str, column: &str) -> String {
    format!("tr[data-row='{row}'] td[data-column='{column}']")
}

async fn shown(c: &Client, css: &str) -> bool {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_matrix_shows_what_the_release_declares() {
    let (_server, browser) = open_wizard("lab").await;
    let c = &browser.client;
    click(c, "a.matrix-link").await;
    text_of(c, "table.matrix").await;
    assert!(c.title().await.unwrap().starts_with("Compatibility matrix"));
    let dvs = "network:neutron:ml2:dvs";
    let contrail = "network:neutron:core:contrail";
    let vcenter = "hypervisor:vmware";
    assert_eq!(text_of(c, &cell(dvs, vcenter)).await, "R");
    assert_eq!(text_of(c, &cell(contrail, vcenter)).await, "X");
    assert_eq!(text_of(c, &cell(vcenter, contrail)).await, "X");
    let why = c
        .find(Locator::Css(&cell(contrail, vcenter)))
        .await
        .unwrap()
        .attr("title")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(why, "Contrail is not compatible with vCenter.");
    assert_eq!(text_of(c, &cell(dvs, dvs)).await, "");
    // Rows kept to storage: the network rows go, the columns stay.
    c.find(Locator::Css("select.row-filter option[value='storage']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    eventually("network rows hidden", || async {
        !shown(c, &format!("tr[data-row='{dvs}']")).await
    })
    .await;
    assert!(shown(c, "tr[data-row='storage:block:backend:ceph']").await);
    assert!(shown(c, &format!("th[data-column='{dvs}']")).await);
    // A component's row and column light up.
    click(
        c,
        "tr[data-row='storage:block:backend:ceph'] button.pick-row",
    )
    .await;
    eventually("row and column highlighted", || async {
        let lit = c.find_all(Locator::Css("td.lit")).await.unwrap().len();
        lit > 0
    })
    .await;
    let column_lit = c
        .find_all(Locator::Css(
            "tr[data-row='storage:block:backend:lvm'] td.lit[data-column='storage:block:backend:ceph']",
        ))
        .await
        .unwrap();
    assert_eq!(column_lit.len(), 1);
    save_screenshot(c, "matrix.png").await;
    browser.close().await;
}
