//! Component tests in headless Chromium (`wasm-bindgen-test`): the settings
//! form shows each setting as its control, checks as the operator types,
//! and keeps what was typed.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::pages::settings::SettingsForm;
use mosaic_app::session::Session;
use mosaic_core::access::Role;
use mosaic_core::api::{Attributes, SessionView};
use mosaic_core::settings::Settings;
use serde_json::json;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn input(selector: &str) -> HtmlInputElement {
    find(&page(), selector).unchecked_into()
}

/// Types `text` into a control as the browser does: its value, then `input`.
fn type_into(control: &Element, text: &str) {
    if let Some(area) = control.dyn_ref::<HtmlTextAreaElement>() {
        area.set_value(text);
    } else {
        control.unchecked_ref::<HtmlInputElement>().set_value(text);
    }
    let _ = control.dispatch_event(&web_sys::Event::new("input").unwrap());
}

fn editable() -> serde_json::Value {
    json!({
        "common": {
            "metadata": {"label": "Common", "weight": 10},
            "debug": {"type": "checkbox", "value": false, "label": "Debug",
                      "description": "More logs"},
            "level": {"type": "select", "value": "info", "label": "Level",
                      "values": [{"data": "info", "label": "Info"},
                                 {"data": "trace", "label": "Trace",
                                  "restrictions": [{"settings:common.debug.value == false": "needs debug"}]}]},
            "workers": {"type": "number", "value": 4, "label": "Workers", "min": 1},
            "dns": {"type": "text_list", "value": ["8.8.8.8", "1.1.1.1"], "label": "DNS"},
            "secret": {"type": "hidden", "value": "x", "label": "Secret"}
        },
        "lbaas": {
            "metadata": {"label": "LBaaS plugin", "weight": 20, "toggleable": true,
                         "enabled": false, "plugin_id": 3, "class": "plugin"},
            "port": {"type": "text", "value": "", "label": "Port",
                     "regex": {"source": "^[0-9]+$", "error": "a port"}}
        }
    })
}

#[wasm_bindgen_test]
async fn each_setting_is_its_control_checked_as_the_operator_types() {
    let editable = editable();
    let settings = Settings::from_editable(&editable).unwrap();
    let attributes = Attributes {
        editable,
        version: 1,
        context: Default::default(),
        bound: serde_json::from_value(serde_json::json!([{
            "path": "common.workers", "value": 4, "component": "storage:block:lvm",
            "label": "LVM", "pane": "Storage"
        }]))
        .unwrap(),
    };
    let holder: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&holder).unwrap();
    let _mounted = leptos::mount::mount_to(holder, move || {
        Session::provide().set(Some(SessionView {
            username: "olga".into(),
            role: Role::Operator,
        }));
        view! { <SettingsForm cluster_id=1 settings attributes reload=Callback::new(|()| {}) /> }
    });
    settle().await;

    // Each setting as its control, by its tree index; hidden ones not at all.
    let common = find(&page(), "fieldset.settings-group[data-group='common']");
    assert_eq!(common.get_attribute("data-g").as_deref(), Some("0"));
    let debug = find(&page(), "[data-setting='common.debug']");
    assert!(debug.class_list().contains("inline"));
    assert_eq!(debug.get_attribute("data-a").as_deref(), Some("0"));
    assert_eq!(
        text(
            &page(),
            "[data-setting='common.debug'] label[for='common.debug']"
        ),
        "Debug"
    );
    assert_eq!(
        text(
            &page(),
            "[data-setting='common.debug'] .setting-description"
        ),
        "More logs"
    );
    assert!(!input("#common\\.debug").checked());
    let level: HtmlSelectElement = find(&page(), "#common\\.level").unchecked_into();
    assert_eq!(level.value(), "0");
    let trace = find(&page(), "#common\\.level option[value='1']");
    assert!(trace.has_attribute("disabled"));
    assert_eq!(
        trace.get_attribute("title").as_deref(),
        Some("needs debug.")
    );
    assert_eq!(input("#common\\.workers").value(), "4");
    // What the components decide is read-only, saying why and where to change it.
    assert!(input("#common\\.workers").disabled());
    assert_eq!(
        text(&page(), "[data-setting='common.workers'] .setting-bound"),
        "Set by the choice of 'LVM' in Storage; change the environment's components to change it. Change the components"
    );
    let link = find(&page(), "[data-setting='common.workers'] .setting-bound a");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("/environments/1/components")
    );
    assert!(!input("#common\\.debug").disabled());
    let dns: HtmlTextAreaElement = find(&page(), "#common\\.dns").unchecked_into();
    assert_eq!(dns.value(), "8.8.8.8\n1.1.1.1");
    assert_eq!(dns.placeholder(), "one per line");
    assert!(
        document()
            .query_selector("[data-setting='common.secret']")
            .unwrap()
            .is_none()
    );
    assert_eq!(text(&page(), ".settings-bar .muted"), "No unsaved changes.");
    assert!(input("button.save-settings").disabled());

    // A switched-off plugin locks its settings until it is switched on.
    let lbaas = find(&page(), "fieldset[data-group='lbaas']");
    assert!(lbaas.class_list().contains("off"));
    assert_eq!(text(&page(), "[data-switch='lbaas']"), "Use this plugin");
    assert!(input("#lbaas\\.port").disabled());
    input("[data-switch='lbaas'] input").click();
    settle().await;
    assert!(!lbaas.class_list().contains("off"));
    assert!(!input("#lbaas\\.port").disabled());

    // Checked as the operator types, in the same field.
    let port = find(&page(), "#lbaas\\.port");
    type_into(&port, "http");
    settle().await;
    assert_eq!(
        text(&page(), "[data-setting='lbaas.port'] .setting-problem"),
        "lbaas.port: a port"
    );
    assert!(
        find(&page(), "#lbaas\\.port") == port,
        "the field typed into stays"
    );
    assert_eq!(input("#lbaas\\.port").value(), "http");
    // What was typed stays the user's, even where the value reads otherwise.
    type_into(&dns, "8.8.8.8\n");
    settle().await;
    assert_eq!(dns.value(), "8.8.8.8\n");
    // Ticking Debug makes Trace a choice.
    input("#common\\.debug").click();
    settle().await;
    assert!(!find(&page(), "#common\\.level option[value='1']").has_attribute("disabled"));
    assert_eq!(
        text(&page(), ".settings-bar .muted"),
        "4 unsaved changes; 1 problem to fix."
    );
    assert!(!input("button.save-settings").disabled());

    // Discard puts the saved values back into the same fields.
    input("button.discard-settings").click();
    settle().await;
    assert_eq!(text(&page(), ".settings-bar .muted"), "No unsaved changes.");
    assert_eq!(dns.value(), "8.8.8.8\n1.1.1.1");
    assert_eq!(input("#lbaas\\.port").value(), "");
    assert!(input("#lbaas\\.port").disabled());
    assert!(lbaas.class_list().contains("off"));
    assert!(!input("#common\\.debug").checked());
    assert_eq!(
        text(&page(), "[data-setting='lbaas.port'] .setting-problems"),
        ""
    );
}
