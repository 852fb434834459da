//! The wizard keeps its promise (SEMANTICS §2.4, panes decided in order):
//! options an earlier pane rules out are blocked with a repair that may add
//! to that pane, radio groups never empty themselves, steps already seen
//! are links, and a failed request keeps what the operator entered.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};

use super::{
    click, created, eventually, open_page, open_wizard, option, save_screenshot, state, text_of,
};

/// Text of `css` inside option `name`.
async fn in_option(c: &Client, name: &str, css: &str) -> String {
    option(c, name)
        .await
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} in {name}: {e}"))
        .text()
        .await
        .unwrap()
}

/// The id of the focused element.
async fn focused_id(c: &Client) -> String {
    c.execute(
        "return document.activeElement && document.activeElement.id",
        vec![],
    )
    .await
    .unwrap()
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

async fn step(c: &Client) -> String {
    c.find(Locator::Css(".pane"))
        .await
        .unwrap()
        .attr("data-step")
        .await
        .unwrap()
        .unwrap_or_default()
}

#[tokio::test]
async fn kvm_only_blocks_nsx_and_dvs_and_their_fix_adds_vcenter() {
    let (_server, browser) = open_wizard("vmware-lab").await;
    let c = &browser.client;
    click(c, "#next").await;
    assert_eq!(state(c, "hypervisor:libvirt:kvm").await, "selected");
    assert_eq!(state(c, "hypervisor:vmware").await, "available");
    click(c, "#next").await;
    for name in ["network:neutron:core:nsx", "network:neutron:ml2:dvs"] {
        eventually(&format!("{name} blocked"), || async {
            state(c, name).await == "blocked"
        })
        .await;
        let reason = in_option(c, name, ".reason-text").await;
        assert!(
            reason.contains("vCenter") && reason.contains("Compute"),
            "{name}: {reason}"
        );
        assert_eq!(
            in_option(c, name, "button.fix").await,
            "Fix: select vCenter"
        );
    }
    save_screenshot(c, "wizard-earlier-pane.png").await;
    // The Fix adds vCenter on Compute, says so, and keeps the focus on NSX.
    let nsx = "network:neutron:core:nsx";
    click(c, &format!("[data-component='{nsx}'] button.fix")).await;
    eventually("NSX selected", || async {
        state(c, nsx).await == "selected"
    })
    .await;
    let notice = text_of(c, "[data-notices]").await;
    assert!(
        notice.contains("To allow VMware NSX, Compute changed: selected vCenter."),
        "{notice}"
    );
    eventually("the focus on NSX", || async {
        focused_id(c).await == "option-network-neutron-core-nsx"
    })
    .await;
    assert!(
        c.find(Locator::Css("#next"))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap()
    );
    click(c, "#back").await;
    assert_eq!(state(c, "hypervisor:vmware").await, "selected");
    browser.close().await;
}

#[tokio::test]
async fn arrow_keys_in_the_core_radio_group_never_leave_the_pane_empty() {
    let (_server, browser) = open_wizard("lab").await;
    let c = &browser.client;
    click(c, "#next").await;
    click(c, "#next").await;
    let core = "[data-pane='networking'] input[name='network-core']";
    let count = c.find_all(Locator::Css(core)).await.unwrap().len();
    assert!(count >= 3, "{count} cores");
    let radio = c
        .find(Locator::Css(&format!("{core}:checked")))
        .await
        .unwrap();
    radio.click().await.unwrap();
    for key in [
        Key::Down,
        Key::Down,
        Key::Down,
        Key::Up,
        Key::Down,
        Key::Up,
        Key::Up,
    ] {
        c.active_element()
            .await
            .unwrap()
            .send_keys(&key.to_string())
            .await
            .unwrap();
        eventually("one core selected and Next enabled", || async {
            let checked = c
                .find_all(Locator::Css(&format!("{core}:checked")))
                .await
                .unwrap();
            let chosen = c
                .find_all(Locator::Css(
                    "[data-pane='networking'] [data-state='selected'] input[name='network-core']",
                ))
                .await
                .unwrap();
            let next = c.find(Locator::Css("#next")).await.unwrap();
            checked.len() == 1 && chosen.len() == 1 && next.is_enabled().await.unwrap()
        })
        .await;
    }
    browser.close().await;
}

#[tokio::test]
async fn the_segmentation_is_one_radio_group_under_ml2_and_reaches_the_environment() {
    let (_server, browser) = open_wizard("tun-lab").await;
    let c = &browser.client;
    click(c, "#next").await;
    click(c, "#next").await;
    let (vlan, tun) = ("network:neutron:ml2:vlan", "network:neutron:ml2:tun");
    let group = "[data-pane='networking'] input[name='network-ml2-0']";
    eventually("VLAN and tunnelling as one radio group", || async {
        c.find_all(Locator::Css(group)).await.unwrap().len() == 2
    })
    .await;
    assert_eq!(state(c, vlan).await, "selected");
    assert_eq!(state(c, tun).await, "available");
    // Tunnelling replaces VLAN; Open vSwitch and the ML2 core stay.
    super::pick(c, tun, "selected").await;
    assert_eq!(state(c, vlan).await, "available");
    assert_eq!(state(c, "network:neutron:ml2:ovs").await, "selected");
    assert_eq!(state(c, "network:neutron:core:ml2").await, "selected");
    for _ in 0..3 {
        click(c, "#next").await;
    }
    click(c, "#create").await;
    created(c, "tun-lab").await;
    // The server reads it as plugins do.
    let segmentation = c
        .execute_async(
            "const [done] = arguments;
             fetch('/api/v1/clusters/1/attributes').then(r => r.json())
               .then(a => done(a.context.networking_parameters.segmentation_type), e => done(String(e)));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(segmentation, "tun");
    browser.close().await;
}

#[tokio::test]
async fn enter_goes_on_and_visited_steps_are_links() {
    let (_server, browser) = open_wizard("lab").await;
    let c = &browser.client;
    assert_eq!(c.title().await.unwrap(), "Environments — Mosaic");
    c.find(Locator::Id("environment-name"))
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    eventually("Compute after Enter", || async { step(c).await == "1" }).await;
    click(c, "#next").await;
    click(c, "#next").await;
    eventually("Storage", || async { step(c).await == "3" }).await;
    let pill = |n: usize| format!(".steps button[data-step='{n}']");
    let enabled = |n: usize| async move {
        c.find(Locator::Css(&pill(n)))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap()
    };
    assert!(enabled(0).await && enabled(1).await && enabled(2).await);
    assert!(!enabled(3).await, "the current step is not a link");
    assert!(!enabled(4).await, "a step not reached yet is not a link");
    click(c, &pill(1)).await;
    eventually("back on Compute", || async { step(c).await == "1" }).await;
    click(c, &pill(3)).await;
    eventually("forward to Storage", || async { step(c).await == "3" }).await;
    browser.close().await;
}

#[tokio::test]
async fn a_failed_create_keeps_the_choices_and_a_retry_succeeds() {
    let (mut server, browser) = open_wizard("retry-lab").await;
    let c = &browser.client;
    click(c, "#next").await;
    super::pick(c, "hypervisor:vmware", "selected").await;
    for _ in 0..4 {
        click(c, "#next").await;
    }
    server.stop();
    click(c, "#create").await;
    let notice = text_of(c, "[data-retry]").await;
    assert!(notice.contains("Cannot reach the server"), "{notice}");
    let summary = text_of(c, ".summary").await;
    assert!(
        summary.contains("retry-lab") && summary.contains("vCenter"),
        "{summary}"
    );
    server.restart();
    click(c, "[data-retry] button.retry").await;
    assert_eq!(created(c, "retry-lab").await, "Environment retry-lab");
    browser.close().await;
}

#[tokio::test]
async fn a_page_recovers_by_itself_when_the_server_comes_back() {
    let (mut server, browser) = open_page("/").await;
    let c = &browser.client;
    text_of(c, "#environment-name").await;
    server.stop();
    click(c, ".nav a[href='/plugins']").await;
    let notice = text_of(c, "[data-page='plugins'] [data-retry]").await;
    assert!(
        notice.contains("Trying again every few seconds"),
        "{notice}"
    );
    server.restart();
    // No reload: the page's own retry finds the server again.
    text_of(c, "[data-plugin='openstack']").await;
    assert!(c.find(Locator::Css("[data-retry]")).await.is_err());
    browser.close().await;
}

/// Collects the page's errors in `window.__errors` (a panic is logged with
/// `console.error`, then thrown) and holds the answer to `POST
/// /api/v1/clusters` back for `arguments[0]` ms once the server gave it:
/// the request reaches the server at once, its answer arrives late.
/// `window.__answered` turns true a moment after the app got it.
const SLOW_CREATE: &str = r#"
const [delay] = arguments;
window.__errors = [];
window.__answered = false;
window.addEventListener('error', e => window.__errors.push('error: ' + e.message));
window.addEventListener('unhandledrejection', e => window.__errors.push('rejection: ' + e.reason));
const log = console.error;
console.error = function (...args) {
  window.__errors.push('console: ' + args.map(String).join(' '));
  log.apply(console, args);
};
const fetch = window.fetch;
window.fetch = function (input, init) {
  // A string, a URL (a lazy page's module) or a Request.
  const request = input instanceof Request;
  const url = new URL(request ? input.url : String(input), location.href);
  const method = ((init && init.method) || (request ? input.method : 'GET')).toUpperCase();
  const answer = fetch.call(window, input, init);
  if (method !== 'POST' || url.pathname !== '/api/v1/clusters') {
    return answer;
  }
  return answer.then(response => new Promise(resolve => setTimeout(() => {
    resolve(response);
    setTimeout(() => { window.__answered = true; }, 500);
  }, delay)));
};
return true;
"#;

#[tokio::test]
async fn an_answer_to_create_after_the_wizard_is_gone_changes_nothing() {
    let (_server, browser) = open_wizard("late-lab").await;
    let c = &browser.client;
    for _ in 0..5 {
        click(c, "#next").await;
    }
    c.execute(SLOW_CREATE, vec![serde_json::json!(3000)])
        .await
        .unwrap();
    click(c, "#create").await;
    assert_eq!(text_of(c, "#create").await, "Creating…");
    click(c, ".nav a[href='/plugins']").await;
    text_of(c, "[data-plugin='openstack']").await;
    eventually("the answer to Create", || async {
        c.execute("return window.__answered", vec![]).await.unwrap() == serde_json::json!(true)
    })
    .await;
    let errors = c.execute("return window.__errors", vec![]).await.unwrap();
    assert_eq!(errors, serde_json::json!([]), "errors in the page");
    // Still on Plugins, which still works.
    assert_eq!(c.current_url().await.unwrap().path(), "/plugins");
    text_of(c, "[data-plugin='openstack']").await;
    // The server created it: the home page lists it, with a fresh wizard.
    click(c, ".nav a[href='/']").await;
    text_of(c, "[data-environment='late-lab']").await;
    let field = c
        .wait()
        .at_most(super::WAIT)
        .for_element(Locator::Id("environment-name"))
        .await
        .unwrap();
    assert_eq!(field.prop("value").await.unwrap().as_deref(), Some(""));
    let errors = c.execute("return window.__errors", vec![]).await.unwrap();
    assert_eq!(errors, serde_json::json!([]), "errors in the page");
    browser.close().await;
}
