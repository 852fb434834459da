//! End-to-end: the real server, the real app, headless Chromium.

use std::time::Duration;

use fantoccini::{Client, Locator};
use mosaic_e2e::{Browser, Server, repo_root};

const WAIT: Duration = Duration::from_secs(15);

async fn option(client: &Client, name: &str) -> fantoccini::elements::Element {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(&format!("[data-component='{name}']")))
        .await
        .unwrap_or_else(|e| panic!("option {name} not found: {e}"))
}

async fn state(client: &Client, name: &str) -> String {
    option(client, name)
        .await
        .attr("data-state")
        .await
        .unwrap()
        .unwrap_or_default()
}

async fn input_enabled(client: &Client, name: &str) -> bool {
    option(client, name)
        .await
        .find(Locator::Css("input"))
        .await
        .unwrap()
        .is_enabled()
        .await
        .unwrap()
}

async fn click(client: &Client, css: &str) {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} not found: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

/// Waits until `check` holds, polling: the UI updates asynchronously.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::time::Instant::now() < deadline {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for: {what}");
}

/// Starts the server and a browser on the wizard, with the environment
/// name typed in.
async fn open_wizard(name: &str) -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::start().await;
    let c = &browser.client;
    c.goto(&server.url).await.unwrap();
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap();
    field.send_keys(name).await.unwrap();
    (server, browser)
}

#[tokio::test]
async fn checking_vcenter_disables_contrail_with_its_reason() {
    let (_server, browser) = open_wizard("lab").await;
    let c = &browser.client;
    click(c, "#next").await;

    // Compute: KVM is the default; add vCenter.
    assert_eq!(state(c, "hypervisor:libvirt:kvm").await, "selected");
    click(c, "[data-component='hypervisor:vmware'] input").await;
    eventually("vCenter selected", || async {
        state(c, "hypervisor:vmware").await == "selected"
    })
    .await;
    click(c, "#next").await;

    // Networking: Contrail is incompatible with vCenter and shows why.
    let contrail = "network:neutron:core:contrail";
    eventually("Contrail blocked", || async {
        state(c, contrail).await == "blocked"
    })
    .await;
    assert!(
        !input_enabled(c, contrail).await,
        "Contrail's radio button must be disabled"
    );
    let reason = option(c, contrail)
        .await
        .find(Locator::Css(".reason-text"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(reason, "Contrail is not compatible with vCenter.");
    // The DVS driver needs vCenter, which is now there.
    assert_eq!(state(c, "network:neutron:ml2:dvs").await, "available");

    let shot = c.screenshot().await.unwrap();
    let dir = repo_root().join("target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("wizard-networking.png"), shot).unwrap();

    // Unchecking vCenter makes Contrail available again.
    click(c, "#back").await;
    click(c, "[data-component='hypervisor:vmware'] input").await;
    click(c, "#next").await;
    eventually("Contrail available", || async {
        state(c, contrail).await == "available"
    })
    .await;
    assert!(input_enabled(c, contrail).await);

    browser.close().await;
}

#[tokio::test]
async fn the_fix_button_applies_the_repair() {
    let (_server, browser) = open_wizard("lab").await;
    let c = &browser.client;
    click(c, "#next").await;
    // QEMU conflicts with the default KVM: blocked, with a one-click repair.
    let qemu = "hypervisor:libvirt:qemu";
    eventually("QEMU blocked", || async {
        state(c, qemu).await == "blocked"
    })
    .await;
    let fix = option(c, qemu)
        .await
        .find(Locator::Css("button.fix"))
        .await
        .unwrap();
    assert_eq!(fix.text().await.unwrap(), "Fix: deselect KVM");
    fix.click().await.unwrap();
    eventually("QEMU selected", || async {
        state(c, qemu).await == "selected"
    })
    .await;
    assert_eq!(state(c, "hypervisor:libvirt:kvm").await, "blocked");
    // Open vSwitch still has a libvirt hypervisor (QEMU), so it stays selected.
    click(c, "#next").await;
    assert_eq!(state(c, "network:neutron:ml2:ovs").await, "selected");
    browser.close().await;
}

#[tokio::test]
async fn the_wizard_creates_an_environment_the_server_accepts() {
    let (_server, browser) = open_wizard("production-east").await;
    let c = &browser.client;
    for _ in 0..5 {
        click(c, "#next").await;
    }
    click(c, "#create").await;
    let status = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(".notice-ok"))
        .await
        .expect("a confirmation")
        .text()
        .await
        .unwrap();
    assert_eq!(status, "Environment 'production-east' was created (id 1).");
    browser.close().await;
}
