//! End-to-end: the real server, the real app, headless Chromium.

mod access;
mod accessibility;
mod admin;
mod api_docs;
mod components;
mod deploy;
mod disks;
mod first_visit;
mod graphs;
mod hardware;
mod matrix;
mod networks;
mod roles;
mod runs;
mod scale;
mod versions;
mod wizard_latency;
mod wizard_panes;

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

/// Saves what the browser shows as `target/e2e/NAME` (`make screenshot`
/// copies some into docs/).
async fn save_screenshot(c: &Client, name: &str) {
    let shot = c.screenshot().await.unwrap();
    let dir = repo_root().join("target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), shot).unwrap();
}

/// Who a test signs in as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Who {
    Operator,
    Admin,
}

/// Signs in on the sign-in page the app shows, and waits until it is gone.
async fn sign_in(c: &Client, server: &Server, who: Who) {
    let (user, password) = match who {
        Who::Operator => ("operator", mosaic_e2e::OPERATOR_PASSWORD),
        Who::Admin => ("admin", server.admin_password.as_str()),
    };
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Id("username"))
        .await
        .expect("the sign-in page");
    field.send_keys(user).await.unwrap();
    c.find(Locator::Id("password"))
        .await
        .unwrap()
        .send_keys(password)
        .await
        .unwrap();
    click(c, "#sign-in").await;
    eventually("signed in", || async {
        c.find(Locator::Css("[data-page='sign-in']")).await.is_err()
    })
    .await;
}

/// Starts the server and a browser on `path`, signed in as the operator.
async fn open_page(path: &str) -> (Server, Browser) {
    open_page_as(path, Who::Operator).await
}

/// Starts the server and a browser on `path`, signed in as `who`.
async fn open_page_as(path: &str, who: Who) -> (Server, Browser) {
    let server = Server::start();
    let browser = Browser::start().await;
    browser
        .client
        .goto(&format!("{}{path}", server.url))
        .await
        .unwrap();
    sign_in(&browser.client, &server, who).await;
    (server, browser)
}

/// Starts the server and a browser on the wizard, with the environment
/// name typed in.
async fn open_wizard(name: &str) -> (Server, Browser) {
    open_wizard_as(name, Who::Operator).await
}

async fn open_wizard_as(name: &str, who: Who) -> (Server, Browser) {
    let (server, browser) = open_page_as("/", who).await;
    let c = &browser.client;
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

    save_screenshot(c, "wizard-networking.png").await;

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

/// Starts the server and a browser, creates environment `name` with the
/// wizard's defaults, and returns the heading of the page it opens.
async fn create_environment(name: &str) -> (Server, Browser, String) {
    create_environment_as(name, Who::Operator).await
}

async fn create_environment_as(name: &str, who: Who) -> (Server, Browser, String) {
    let (server, browser) = open_wizard_as(name, who).await;
    let c = &browser.client;
    for _ in 0..5 {
        click(c, "#next").await;
    }
    click(c, "#create").await;
    let heading = created(c, name).await;
    (server, browser, heading)
}

/// After Create: waits for environment `name`'s page, returns its heading.
async fn created(c: &Client, name: &str) -> String {
    let heading = "[data-page='environment'] h1";
    eventually(&format!("the page of {name}"), || async {
        text_of(c, heading).await.ends_with(name)
    })
    .await;
    text_of(c, heading).await
}

#[tokio::test]
async fn the_wizard_creates_an_environment_the_server_accepts() {
    let (_server, browser, heading) = create_environment("production-east").await;
    let c = &browser.client;
    assert_eq!(heading, "Environment production-east");
    assert!(
        c.current_url()
            .await
            .unwrap()
            .path()
            .ends_with("/environments/1")
    );
    eventually("the page title names the environment", || async {
        c.title().await.unwrap() == "Environment production-east · Nodes — Mosaic"
    })
    .await;
    // The list shows it, and the wizard starts afresh.
    click(c, ".nav a[href='/']").await;
    text_of(c, "[data-environment='production-east']").await;
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap();
    assert_eq!(field.prop("value").await.unwrap().as_deref(), Some(""));
    assert_eq!(c.title().await.unwrap(), "Environments — Mosaic");
    browser.close().await;
}

/// `dir` packed as a `.tar.gz` in a temporary directory (kept by the guard).
fn tarball(dir: &std::path::Path) -> (tempfile::TempDir, std::path::PathBuf) {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("package.tar.gz");
    let status = std::process::Command::new("tar")
        .arg("czf")
        .arg(&file)
        .arg("-C")
        .arg(dir)
        .arg(".")
        .status()
        .expect("tar runs");
    assert!(status.success());
    (out, file)
}

/// Chooses `file` in the file input `css`.
async fn choose_file(client: &Client, css: &str, file: &std::path::Path) {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} not found: {e}"))
        .send_keys(file.to_str().unwrap())
        .await
        .unwrap();
}

/// Opens the environment's Deployment preview tab, once its plan is shown.
async fn open_preview(c: &Client) {
    click(c, ".tabs a[href$='/preview']").await;
    text_of(c, "[data-page='preview'] .preview").await;
}

/// Back on the environment's Nodes tab, once its table is shown.
async fn open_nodes(c: &Client) {
    click(c, ".tabs li:first-child a").await;
    text_of(c, "[data-page='environment'] .node-table").await;
}

/// The text of the element `css` selects, once there. A page that renders
/// again between finding the element and reading it (an answer arriving)
/// leaves a stale element: it is found again, until `WAIT`.
async fn text_of(client: &Client, css: &str) -> String {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let element = client
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{css} not found: {e}"));
        match element.text().await {
            Ok(text) => return text,
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference
                    && tokio::time::Instant::now() < deadline => {}
            Err(e) => panic!("{css}: {e}"),
        }
    }
}

/// Uninstalls the plugin `name` from the Plugins page: two clicks, the
/// first turning the button into a confirmation.
async fn uninstall(client: &Client, name: &str) {
    let row = format!("[data-plugin='{name}']");
    let button = format!("{row} button.uninstall");
    click(client, &button).await;
    eventually("the confirmation step", || async {
        text_of(client, &button).await == "Confirm uninstall"
    })
    .await;
    click(client, &button).await;
    eventually(&format!("{name} gone"), || async {
        client.find(Locator::Css(&row)).await.is_err()
    })
    .await;
}

#[tokio::test]
async fn uninstalling_every_release_plugin_shows_the_onboarding_screen() {
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    uninstall(c, "openstack").await;
    click(c, ".nav a[href='/']").await;
    let onboarding = text_of(c, "[data-page='onboarding']").await;
    assert!(
        onboarding.contains("mosaic plugin install PATH"),
        "{onboarding}"
    );
    assert!(c.find(Locator::Css("input.plugin-upload")).await.is_ok());
    // A reload lands on the same screen: no release, no wizard.
    c.refresh().await.unwrap();
    text_of(c, "[data-page='onboarding']").await;
    assert!(c.find(Locator::Id("environment-name")).await.is_err());
    browser.close().await;
}

#[tokio::test]
async fn a_release_plugin_uploaded_on_the_onboarding_screen_starts_the_wizard() {
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    uninstall(c, "openstack").await;
    click(c, ".nav a[href='/']").await;
    text_of(c, "[data-page='onboarding']").await;
    let (_keep, archive) = tarball(&repo_root().join("releases/openstack"));
    choose_file(c, "[data-page='onboarding'] input.plugin-upload", &archive).await;
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .expect("the wizard after the upload");
    assert!(
        c.find(Locator::Css("[data-page='onboarding']"))
            .await
            .is_err()
    );
    // The Plugins page lists the plugin again.
    click(c, ".nav a[href='/plugins']").await;
    text_of(c, "[data-plugin='openstack']").await;
    browser.close().await;
}

#[tokio::test]
async fn a_plugin_an_environment_uses_stays_installed_and_says_why() {
    let (_server, browser, _) = create_environment_as("lab", Who::Admin).await;
    let c = &browser.client;
    click(c, ".nav a[href='/plugins']").await;
    let row = "[data-plugin='openstack']";
    assert!(text_of(c, row).await.contains("lab"));
    let button = format!("{row} button.uninstall");
    click(c, &button).await;
    click(c, &button).await;
    let error = text_of(c, &format!("{row} .notice-error")).await;
    assert!(error.contains("used by the environment 'lab'"), "{error}");
    assert_eq!(text_of(c, &button).await, "Uninstall");
    browser.close().await;
}

#[tokio::test]
async fn an_invalid_plugin_upload_shows_every_problem() {
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    let fixture = repo_root().join("server/tests/fixtures/plugins/five-mistakes");
    let (_keep, archive) = tarball(&fixture);
    choose_file(c, "input.plugin-upload", &archive).await;
    let report = text_of(c, ".validation-report").await;
    assert!(report.contains("5 errors, 0 warnings"), "{report}");
    let items = c
        .find_all(Locator::Css(".validation-report .diagnostic"))
        .await
        .unwrap();
    assert_eq!(items.len(), 5);
    assert!(report.contains("node_roles.yaml:5"), "{report}");
    browser.close().await;
}

#[tokio::test]
async fn a_controller_kept_to_rabbitmq_previews_only_its_tasks() {
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    click(c, ".add-node input[data-role='controller']").await;
    click(c, ".add-node-button").await;
    let node = "[data-node='1']";
    text_of(c, &format!("{node} .chip[data-tag='keystone']")).await;
    // The table row opens the node's editor, in the row under it.
    click(c, "tr[data-node='1'] button.edit-node").await;
    text_of(c, "tr[data-node='1'] + tr.node-editor .node[data-node='1']").await;
    c.execute(
        "document.querySelector('tr.node-editor').scrollIntoView({block: 'center'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "node-editor.png").await;
    for tag in ["controller", "database", "keystone", "neutron"] {
        click(
            c,
            &format!(".node{node} .chip[data-tag='{tag}'] button.remove-tag"),
        )
        .await;
        eventually(&format!("{tag} removed"), || async {
            c.find(Locator::Css(&format!(
                ".node{node} .chip[data-tag='{tag}']"
            )))
            .await
            .is_err()
        })
        .await;
    }
    open_preview(c).await;
    let group = ".node-plan[data-nodes~='1']";
    let tasks = text_of(c, &format!("{group} ol.tasks")).await;
    assert!(
        tasks.contains("rabbitmq") && tasks.contains("globals"),
        "{tasks}"
    );
    assert!(
        !tasks.contains("keystone") && !tasks.contains("horizon"),
        "{tasks}"
    );
    click(c, &format!("{group} button.show-graph")).await;
    text_of(c, &format!("{group} svg.plan-graph")).await;
    let boxes = c
        .find_all(Locator::Css(&format!("{group} svg.plan-graph g.task")))
        .await
        .unwrap();
    assert_eq!(boxes.len(), tasks.lines().count());
    // The graph scrolls sideways: it takes the keyboard focus to do so.
    let scroll = c
        .find(Locator::Css(&format!("{group} .graph-scroll")))
        .await
        .unwrap();
    assert_eq!(scroll.attr("tabindex").await.unwrap().as_deref(), Some("0"));
    c.execute(
        "document.querySelector('.node-plan svg').scrollIntoView({block: 'center'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "deployment-preview.png").await;
    // A tag removed comes back when typed into the editor, still open
    // on coming back to the Nodes tab.
    open_nodes(c).await;
    c.find(Locator::Css(&format!(".node{node} input.add-tag")))
        .await
        .unwrap()
        .send_keys("keystone")
        .await
        .unwrap();
    click(c, &format!(".node{node} .add-tag-button")).await;
    text_of(c, &format!(".node{node} .chip[data-tag='keystone']")).await;
    browser.close().await;
}

#[tokio::test]
async fn heat_choices_are_asked_and_the_resolved_environment_offered() {
    let (_server, browser) = open_page("/heat").await;
    let c = &browser.client;
    let fixture = repo_root().join("server/tests/fixtures/heat");
    let (_keep, archive) = tarball(&fixture);
    choose_file(c, "input.template-upload", &archive).await;
    let summary = text_of(c, "table.capabilities").await;
    assert!(summary.contains("docker, puppet"), "{summary}");
    let env = std::fs::read_to_string(fixture.join("open-env.yaml")).unwrap();
    c.find(Locator::Css("textarea.environment-text"))
        .await
        .unwrap()
        .send_keys(&env)
        .await
        .unwrap();
    click(c, "button.resolve").await;
    let choice = "fieldset.choice[data-resource-type='OS::TripleO::Controller']";
    text_of(c, choice).await;
    assert!(c.find(Locator::Css("a.download")).await.is_err());
    click(
        c,
        &format!("{choice} input[value='docker/controller.yaml']"),
    )
    .await;
    let link = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css("a.download"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(link.contains("docker%2Fcontroller.yaml"), "{link}");
    browser.close().await;
}

/// Whether the element `css` exists now.
async fn exists(client: &Client, css: &str) -> bool {
    client.find(Locator::Css(css)).await.is_ok()
}

/// Clicks option `name` in the wizard and waits until it is `state`.
async fn pick(client: &Client, name: &str, expect: &str) {
    click(client, &format!("[data-component='{name}'] input")).await;
    eventually(&format!("{name} {expect}"), || async {
        state(client, name).await == expect
    })
    .await;
}

#[tokio::test]
async fn ceph_chosen_in_the_wizard_takes_a_ceph_osd_node_and_skips_swift_and_cinder() {
    let (_server, browser) = open_wizard("ceph-lab").await;
    let c = &browser.client;
    for _ in 0..3 {
        click(c, "#next").await;
    }
    // Storage: Ceph everywhere. LVM leaves first (the two exclude each
    // other), and images leave Swift before objects do (images in Swift
    // need Swift objects).
    pick(c, "storage:block:backend:lvm", "available").await;
    pick(c, "storage:block:backend:ceph", "selected").await;
    pick(c, "storage:image:ceph", "selected").await;
    pick(c, "storage:object:backend:ceph", "selected").await;
    pick(c, "storage:ephemeral:ceph", "selected").await;
    for _ in 0..2 {
        click(c, "#next").await;
    }
    click(c, "#create").await;
    created(c, "ceph-lab").await;
    click(c, ".add-node input[data-role='ceph-osd']").await;
    click(c, ".add-node-button").await;
    text_of(c, "[data-node='1'] .chip[data-tag='ceph-osd']").await;
    open_preview(c).await;
    let tasks = text_of(c, ".node-plan[data-nodes~='1'] ol.tasks").await;
    assert!(tasks.contains("top-role-ceph-osd"), "{tasks}");
    let all = text_of(c, ".preview").await;
    let runs = |task: &str| all.lines().any(|l| l.trim() == task);
    assert!(!runs("swift") && !runs("top-role-cinder"), "{all}");
    click(c, ".plan-skipped summary").await;
    let skipped = text_of(c, ".plan-skipped").await;
    assert!(
        skipped.contains("swift: condition") && skipped.contains("top-role-cinder"),
        "{skipped}"
    );
    browser.close().await;
}

#[tokio::test]
async fn an_lvm_environment_says_why_ceph_osd_is_not_available() {
    let (_server, browser, _) = create_environment("lvm-lab").await;
    let c = &browser.client;
    let osd = ".add-node input[data-role='ceph-osd']";
    c.wait()
        .at_most(WAIT)
        .for_element(Locator::Css(osd))
        .await
        .unwrap();
    assert!(
        !c.find(Locator::Css(osd))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap()
    );
    click(c, ".role-reasons summary").await;
    let reason = text_of(c, ".role-reasons li[data-role='ceph-osd']").await;
    assert_eq!(
        reason,
        "Ceph OSD: Ceph should be enabled in the environment settings."
    );
    browser.close().await;
}

#[tokio::test]
async fn settings_check_as_the_operator_types_and_a_refused_save_stores_nothing() {
    let (server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    c.goto(&format!("{}/environments/1/settings", server.url))
        .await
        .unwrap();
    let user = "[data-setting='access.user'] input";
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(user))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys("nova").await.unwrap();
    let problem = text_of(c, "[data-setting='access.user'] .setting-problem").await;
    assert!(problem.starts_with("access.user: "), "{problem}");
    // A checkbox whose restriction holds cannot be checked, and says why.
    let dvr = "[data-setting='neutron_advanced_configuration.neutron_dvr']";
    assert!(
        !c.find(Locator::Css(&format!("{dvr} input")))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap()
    );
    assert_eq!(
        text_of(c, &format!("{dvr} .setting-reason")).await,
        "Distributed routers need L2 population."
    );
    click(c, "button.save-settings").await;
    let notice = text_of(c, ".settings-notice").await;
    assert!(
        notice.contains("Not saved") && notice.contains("access.user: "),
        "{notice}"
    );
    save_screenshot(c, "settings-refused.png").await;
    // Discard puts the saved value back into the field typed into.
    click(c, "button.discard-settings").await;
    eventually("the typed name discarded", || async {
        field.prop("value").await.unwrap().as_deref() == Some("admin")
    })
    .await;
    c.refresh().await.unwrap();
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(user))
        .await
        .unwrap();
    assert_eq!(field.prop("value").await.unwrap().as_deref(), Some("admin"));
    browser.close().await;
}

#[tokio::test]
async fn a_plugin_chosen_in_the_wizard_is_on_read_only_in_the_settings() {
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    let (_keep, archive) = tarball(&repo_root().join("server/tests/fixtures/plugins/v5-example"));
    choose_file(c, "input.plugin-upload", &archive).await;
    text_of(c, "[data-plugin='storage_demo']").await;
    click(c, ".nav a[href='/']").await;
    let field = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap();
    field.send_keys("demo").await.unwrap();
    for _ in 0..4 {
        click(c, "#next").await;
    }
    pick(c, "additional_service:storage_demo", "selected").await;
    click(c, "#next").await;
    click(c, "#create").await;
    created(c, "demo").await;
    text_of(
        c,
        ".add-node label.role:has(input[data-role='storage_demo'])",
    )
    .await;
    // Its switch belongs to the choice made in the wizard (SEMANTICS §9.1):
    // the Settings page shows it on, read-only, and says where to change it.
    click(c, ".tabs a[href='/environments/1/settings']").await;
    let switch = "[data-switch='storage_demo'] input";
    let input = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(switch))
        .await
        .unwrap();
    assert!(input.is_selected().await.unwrap());
    assert!(!input.is_enabled().await.unwrap());
    let note = text_of(c, "[data-group='storage_demo'] > .setting-bound").await;
    assert!(
        note.starts_with("Set by the choice of 'Storage demo service' in Additional services"),
        "{note}"
    );
    assert!(
        exists(
            c,
            "[data-group='storage_demo'] > .setting-bound a[href='/environments/1/components']"
        )
        .await
    );
    save_screenshot(c, "settings-bound.png").await;
    browser.close().await;
}
