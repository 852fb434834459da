//! Component tests in headless Chromium (`wasm-bindgen-test`): the option
//! row (`OptionRow`) shows what core decided, changed in place, and its
//! input reaches the callbacks.

#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::prelude::*;
use mosaic_app::components::option_row::OptionRow;
use mosaic_core::component::{
    Advice, Blocking, Compatibility, Component, ComponentReport, DEFAULT_REQUIRED_TYPES, Engine,
    Reason, Registry, Repair, Source, State,
};
use mosaic_core::wizard::view::{OptionHead, OptionView};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A row kept from signals, as the wizard keeps each of its options.
#[wasm_bindgen_test]
async fn a_row_changes_in_place_as_its_report_and_advice_change() {
    let components: Vec<Component> = serde_json::from_str(
        r#"[{"name": "hypervisor:vmware", "label": "vCenter"},
            {"name": "network:contrail", "label": "Contrail", "description": "SDN <overlay>"}]"#,
    )
    .unwrap();
    let registry = Arc::new(Registry::new([(Source("test".into()), components)]).unwrap());
    let report = RwSignal::new(reported(State::Available, &[]));
    let blocking = RwSignal::new(None::<Blocking>);
    let advice = RwSignal::new(None::<Advice>);
    let open = RwSignal::new(false);
    let head = OptionHead::new(&registry, 1, Some("sdn"), Some("network-core".into()));
    let parts = Memo::new(move |_| {
        report.with(|report| {
            blocking.with(|blocking| {
                advice.with(|advice| {
                    OptionView {
                        registry: &registry,
                        i: 1,
                        nested: false,
                        report,
                        blocking: blocking.as_ref(),
                        advice: advice.as_ref(),
                        open: open.get(),
                    }
                    .parts()
                })
            })
        })
    });
    let (picks, fixes) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let on_pick = {
        let picks = send_wrapper::SendWrapper::new(picks.clone());
        Callback::new(move |()| picks.set(picks.get() + 1))
    };
    let on_fix = {
        let fixes = send_wrapper::SendWrapper::new(fixes.clone());
        Callback::new(move |()| fixes.set(fixes.get() + 1))
    };
    let on_open = Callback::new(move |opened: bool| open.set(opened));
    let holder = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&holder).unwrap();
    let _mounted = leptos::mount::mount_to(holder.clone().unchecked_into(), move || {
        view! { <OptionRow head parts on_pick on_fix on_open /> }
    });
    leptos::task::tick().await;
    let row = find("[data-component='network:contrail']");
    assert_eq!(row.class_name(), "option");
    assert_eq!(
        row.get_attribute("data-state").as_deref(),
        Some("available")
    );
    assert!(!input().disabled());
    assert_eq!(input().type_(), "radio");
    assert_eq!(input().name(), "network-core");
    assert_eq!(input().value(), "network:contrail");
    assert_eq!(input().id(), "option-network-contrail");
    let label = find("label.label");
    assert_eq!(
        label.get_attribute("for").as_deref(),
        Some("option-network-contrail")
    );
    assert_eq!(label.text_content().unwrap(), "Contrail");
    assert_eq!(text(".source"), "from plugin sdn");
    assert_eq!(text(".description"), "SDN <overlay>");
    assert!(find(".tested").class_list().contains("hidden"));
    assert!(find("details.untested").class_list().contains("hidden"));
    assert!(find(".reason").class_list().contains("hidden"));
    assert!(find("button.fix").class_list().contains("hidden"));

    advice.set(Some(Advice {
        compatibility: Some(Compatibility::Untested),
        untested_with: vec!["hypervisor:vmware".into()],
    }));
    leptos::task::tick().await;
    assert!(!find("details.untested").class_list().contains("hidden"));
    assert_eq!(text("summary"), "not tested with 1 choice");
    assert_eq!(text("details ul"), "", "listed only while open");
    let details: web_sys::HtmlDetailsElement = find("details.untested").unchecked_into();
    details.set_open(true);
    eventually(|| text("details ul") == "vCenter").await;

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
    assert!(!find("button.fix").class_list().contains("hidden"));
    let same = find("[data-component='network:contrail']");
    assert!(
        same == row,
        "the row is changed in place, not written again"
    );
    find("button.fix").unchecked_into::<HtmlElement>().click();
    assert_eq!(fixes.get(), 1);

    // A box the browser ticked shows the engine's answer.
    report.set(reported(State::Available, &[]));
    blocking.set(None);
    leptos::task::tick().await;
    assert!(!input().disabled());
    input().click();
    assert_eq!(picks.get(), 1);
    assert!(!input().checked(), "unchanged until the engine answers");
    report.set(reported(State::Selected, &[]));
    leptos::task::tick().await;
    assert!(input().checked());
    assert_eq!(row.get_attribute("data-state").as_deref(), Some("selected"));
    report.set(reported(State::Dead, &["Nothing holds it."]));
    leptos::task::tick().await;
    assert!(!input().checked());
    assert_eq!(text(".reason-text"), "Nothing holds it.");
    assert!(find("button.fix").class_list().contains("hidden"));
    holder.remove();
}

/// Polls `check` for a while: the browser fires `toggle` on its own.
async fn eventually(check: impl Fn() -> bool) {
    for _ in 0..100 {
        if check() {
            return;
        }
        gloo_timers_sleep(10).await;
    }
    panic!("timed out");
}

async fn gloo_timers_sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
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
