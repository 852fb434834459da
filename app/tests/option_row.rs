//! Component tests in headless Chromium (`wasm-bindgen-test`): the option
//! row shows what core decided, changed in place.

#![cfg(target_arch = "wasm32")]

use std::sync::Arc;

use leptos::prelude::*;
use mosaic_app::components::option_row::keep_row;
use mosaic_app::dom::{el, mount};
use mosaic_core::component::{
    Advice, Blocking, Compatibility, Component, ComponentReport, DEFAULT_REQUIRED_TYPES, Engine,
    Reason, Registry, Repair, Source, State,
};
use mosaic_core::markup::wizard::{OptionView, option};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A row kept from signals, as the wizard keeps each of its options.
#[wasm_bindgen_test]
async fn a_row_changes_in_place_as_its_report_and_advice_change() {
    let components: Vec<Component> = serde_json::from_str(
        r#"[{"name": "hypervisor:vmware", "label": "vCenter"},
            {"name": "network:contrail", "label": "Contrail", "description": "SDN"}]"#,
    )
    .unwrap();
    let registry = Arc::new(Registry::new([(Source("test".into()), components)]).unwrap());
    let report = RwSignal::new(reported(State::Available, &[]));
    let blocking = RwSignal::new(None::<Blocking>);
    let advice = RwSignal::new(None::<Advice>);
    let open = RwSignal::new(false);
    let view = move |whole: bool| {
        let (blocking, advice) = (blocking.get(), advice.get());
        report.with(|report| {
            let v = OptionView {
                registry: &registry,
                i: 1,
                plugin: Some("sdn"),
                radio_group: Some("network-core"),
                nested: false,
                report,
                blocking: blocking.as_ref(),
                advice: advice.as_ref(),
                open: open.get(),
            };
            let parts = v.parts();
            let whole = whole.then(|| option(&v, &parts));
            (parts, whole)
        })
    };
    mount(move || {
        let slot = el("div");
        keep_row(slot.element(), Box::new(view));
        slot.into()
    });
    leptos::task::tick().await;
    let row = find("[data-component='network:contrail']");
    assert!(!input().disabled());
    assert_eq!(input().type_(), "radio");
    assert_eq!(text(".source"), "from plugin sdn");
    assert!(find("details.untested").class_list().contains("hidden"));

    advice.set(Some(Advice {
        compatibility: Some(Compatibility::Untested),
        untested_with: vec!["hypervisor:vmware".into()],
    }));
    leptos::task::tick().await;
    assert!(!find("details.untested").class_list().contains("hidden"));
    assert_eq!(text("summary"), "not tested with 1 choice");
    assert_eq!(text("details ul"), "", "listed only while open");
    open.set(true);
    leptos::task::tick().await;
    assert_eq!(text("details ul"), "vCenter");

    // Blocked, as the pane's evaluation says on every click: why and the
    // Fix come once the row's blocking is worked out (near the screen).
    report.set(reported(State::Blocked, &[]));
    leptos::task::tick().await;
    assert!(input().disabled());
    assert!(find(".reason").class_list().contains("hidden"));
    assert_eq!(text(".reason-text"), "");
    blocking.set(Some(Blocking {
        reasons: reported(
            State::Blocked,
            &["Contrail is not compatible with vCenter."],
        )
        .reasons,
        repair: Repair {
            select: Vec::new(),
            deselect: vec!["hypervisor:vmware".into()],
        },
    }));
    leptos::task::tick().await;
    assert!(input().disabled());
    assert_eq!(row.get_attribute("data-state").as_deref(), Some("blocked"));
    assert_eq!(row.class_name(), "option unavailable");
    assert_eq!(
        text(".reason-text"),
        "Contrail is not compatible with vCenter."
    );
    assert_eq!(text("button.fix"), "Fix: deselect vCenter");
    assert!(!find(".reason").class_list().contains("hidden"));
    let same = find("[data-component='network:contrail']");
    assert!(
        same == row,
        "the row is changed in place, not written again"
    );

    // A box the browser ticked shows the engine's answer.
    report.set(reported(State::Available, &[]));
    blocking.set(None);
    leptos::task::tick().await;
    input().set_checked(true);
    report.set(reported(State::Dead, &["Nothing holds it."]));
    leptos::task::tick().await;
    assert!(!input().checked());
    assert!(find("button.fix").class_list().contains("hidden"));
}

fn reported(state: State, reasons: &[&str]) -> ComponentReport {
    let reasons = reasons.iter().map(|message| Reason {
        kind: "incompatible".into(),
        components: vec!["network:contrail".into()],
        message: (*message).into(),
        pane: None,
    });
    ComponentReport {
        name: "network:contrail".into(),
        source: "test".into(),
        state,
        reasons: reasons.collect(),
        repair: None,
        compatibility: None,
        untested_with: Vec::new(),
    }
}

fn find(css: &str) -> web_sys::Element {
    document()
        .query_selector(&format!(
            "[data-component='network:contrail'] {css}, {css}[data-component]"
        ))
        .unwrap()
        .unwrap_or_else(|| panic!("no {css}"))
}

fn text(css: &str) -> String {
    find(css).text_content().unwrap_or_default()
}

fn input() -> HtmlInputElement {
    find("input").unchecked_into()
}

#[wasm_bindgen_test]
fn core_decides_the_same_in_the_browser() {
    let components: Vec<Component> = serde_json::from_str(
        r#"[{"name": "hypervisor:vmware"}, {"name": "hypervisor:kvm"},
            {"name": "network:contrail", "incompatible": [{"name": "hypervisor:vmware", "message": "no"}]}]"#,
    )
    .unwrap();
    let registry = Registry::new([(Source("test".into()), components)]).unwrap();
    let engine = Engine::new(registry, &DEFAULT_REQUIRED_TYPES[..1]);
    let evaluation = engine.evaluate(&["hypervisor:vmware".to_owned()]);
    assert_eq!(evaluation.components[2].state, State::Blocked);
    assert_eq!(evaluation.components[2].reasons[0].message, "no");
    assert_eq!(
        evaluation.components[2].repair.as_ref().unwrap().deselect,
        ["hypervisor:vmware"]
    );
}
