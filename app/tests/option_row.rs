//! Component tests in headless Chromium (`wasm-bindgen-test`): the option
//! row shows what core decided, and reports clicks.

#![cfg(target_arch = "wasm32")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use mosaic_app::components::option_row::{Input, OptionRow};
use mosaic_core::component::{
    Advice, Compatibility, Component, ComponentReport, DEFAULT_REQUIRED_TYPES, Engine, Reason,
    Registry, Repair, Source, State,
};
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
    let report = RwSignal::new(ComponentReport {
        name: "network:contrail".into(),
        source: "test".into(),
        state: State::Available,
        reasons: Vec::new(),
        repair: None,
        compatibility: None,
        untested_with: Vec::new(),
    });
    let clicks = Arc::new(AtomicUsize::new(0));
    let counter = clicks.clone();
    let fixes = Arc::new(AtomicUsize::new(0));
    let fix_counter = fixes.clone();
    let repair = RwSignal::new(None);
    let advice = RwSignal::new(None);
    let near = RwSignal::new(false);
    mount_to_body(move || {
        let counter = counter.clone();
        let fix_counter = fix_counter.clone();
        view! {
            <OptionRow
                name="network:contrail".to_owned()
                label="Contrail".to_owned()
                description="SDN".to_owned()
                plugin=Some("sdn".to_owned())
                input=Input::Radio("network-core".to_owned())
                report
                repair
                advice
                near
                label_of=Callback::new(|name: String| if name == "hypervisor:vmware" { "vCenter".to_owned() } else { name })
                on_toggle=Callback::new(move |()| {
                    counter.fetch_add(1, Ordering::SeqCst);
                })
                on_fix=Callback::new(move |()| {
                    fix_counter.fetch_add(1, Ordering::SeqCst);
                })
            />
        }
    });
    assert!(!input("network:contrail").disabled());
    assert_eq!(input("network:contrail").type_(), "radio");
    let source = document()
        .query_selector("[data-component='network:contrail'] .source")
        .unwrap()
        .expect("the providing plugin is shown")
        .text_content()
        .unwrap();
    assert_eq!(source, "from plugin sdn");
    input("network:contrail").click();
    assert_eq!(clicks.load(Ordering::SeqCst), 1);
    // The advice, worked out apart from the report, says what it was not
    // tested with.
    let untested = || {
        document()
            .query_selector("[data-component='network:contrail'] details.untested")
            .unwrap()
            .expect("the untested list")
    };
    assert!(untested().class_list().contains("hidden"));
    advice.set(Some(Advice {
        compatibility: Some(Compatibility::Untested),
        untested_with: vec!["hypervisor:vmware".into()],
    }));
    leptos::task::tick().await;
    assert!(!untested().class_list().contains("hidden"));
    let summary = untested()
        .query_selector("summary")
        .unwrap()
        .unwrap()
        .text_content();
    assert_eq!(summary.as_deref(), Some("not tested with 1 choice"));

    report.set(ComponentReport {
        name: "network:contrail".into(),
        source: "test".into(),
        state: State::Blocked,
        reasons: vec![Reason {
            kind: "incompatible".into(),
            components: vec!["network:contrail".into(), "hypervisor:vmware".into()],
            message: "Contrail is not compatible with vCenter.".into(),
            pane: None,
        }],
        repair: None,
        compatibility: None,
        untested_with: Vec::new(),
    });
    repair.set(Some(Repair {
        select: Vec::new(),
        deselect: vec!["hypervisor:vmware".into()],
    }));
    leptos::task::tick().await;
    assert!(input("network:contrail").disabled());
    assert_eq!(
        attr("network:contrail", "data-state").as_deref(),
        Some("blocked")
    );
    let reason = document()
        .query_selector("[data-component='network:contrail'] .reason-text")
        .unwrap()
        .expect("a reason is shown")
        .text_content()
        .unwrap();
    assert_eq!(reason, "Contrail is not compatible with vCenter.");
    let fix: web_sys::HtmlElement = document()
        .query_selector("[data-component='network:contrail'] button.fix")
        .unwrap()
        .expect("a fix button")
        .unchecked_into();
    assert_eq!(fix.text_content().unwrap(), "Fix: deselect vCenter");
    fix.click();
    assert_eq!(fixes.load(Ordering::SeqCst), 1);
    // The row is on screen, and the page's observer says so.
    for _ in 0..50 {
        if near.get_untracked() {
            break;
        }
        sleep(20).await;
    }
    assert!(near.get_untracked(), "the row on screen is near the screen");
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
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
