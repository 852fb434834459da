//! Component tests in headless Chromium (`wasm-bindgen-test`): the option
//! row shows what core decided, and reports clicks.

#![cfg(target_arch = "wasm32")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use mosaic_app::components::option_row::{Input, OptionRow};
use mosaic_core::component::{Component, Registry, Source};
use mosaic_core::wizard::{self, Layout, OptionState, Reason, ReasonKind, State};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn input(name: &str) -> HtmlInputElement {
    document()
        .query_selector(&format!("[data-component='{name}'] input"))
        .unwrap()
        .unwrap_or_else(|| panic!("no input for {name}"))
        .unchecked_into()
}

fn attr(name: &str, attribute: &str) -> Option<String> {
    document()
        .query_selector(&format!("[data-component='{name}']"))
        .unwrap()
        .unwrap()
        .get_attribute(attribute)
}

#[wasm_bindgen_test]
async fn a_blocked_option_is_disabled_and_says_why() {
    let state = RwSignal::new(OptionState {
        name: "network:contrail".into(),
        state: State::Available,
        reasons: Vec::new(),
    });
    let clicks = Arc::new(AtomicUsize::new(0));
    let counter = clicks.clone();
    mount_to_body(move || {
        let counter = counter.clone();
        view! {
            <OptionRow
                name="network:contrail".to_owned()
                label="Contrail".to_owned()
                description="SDN".to_owned()
                input=Input::Radio("network-core".to_owned())
                state
                on_toggle=Callback::new(move |()| {
                    counter.fetch_add(1, Ordering::SeqCst);
                })
            />
        }
    });
    assert!(!input("network:contrail").disabled());
    assert_eq!(input("network:contrail").type_(), "radio");
    input("network:contrail").click();
    assert_eq!(clicks.load(Ordering::SeqCst), 1);

    state.set(OptionState {
        name: "network:contrail".into(),
        state: State::Blocked,
        reasons: vec![Reason {
            kind: ReasonKind::Incompatible,
            components: vec!["network:contrail".into(), "hypervisor:vmware".into()],
            message: "Contrail is not compatible with vCenter.".into(),
        }],
    });
    leptos::task::tick().await;
    assert!(input("network:contrail").disabled());
    assert_eq!(
        attr("network:contrail", "data-state").as_deref(),
        Some("blocked")
    );
    let reason = document()
        .query_selector("[data-component='network:contrail'] .reason")
        .unwrap()
        .expect("a reason is shown")
        .text_content()
        .unwrap();
    assert_eq!(reason, "Contrail is not compatible with vCenter.");
}

#[wasm_bindgen_test]
fn core_decides_the_same_in_the_browser() {
    let components: Vec<Component> = serde_json::from_str(
        r#"[{"name": "hypervisor:vmware"},
            {"name": "network:contrail", "incompatible": [{"name": "hypervisor:vmware", "message": "no"}]}]"#,
    )
    .unwrap();
    let registry = Registry::new([(Source("test".into()), components)]).unwrap();
    let layout = Layout::new(&registry);
    let states = wizard::evaluate(&registry, &layout, &[true, false]);
    assert_eq!(states[1].state, State::Blocked);
    assert_eq!(states[1].reasons[0].message, "no");
}
