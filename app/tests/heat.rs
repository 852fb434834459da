//! Component tests in headless Chromium (`wasm-bindgen-test`): the Heat
//! page — what a template set provides, the upload a viewer cannot use,
//! and a resolution's choices kept in place as answers follow each other.

#![cfg(target_arch = "wasm32")]

use std::collections::BTreeMap;

use leptos::prelude::*;
use mosaic_app::pages::heat::{HeatPage, Resolution, TemplateSetSummary};
use mosaic_app::session::Session;
use mosaic_core::api::{TemplateResolution, TemplateSet};
use mosaic_core::heat::{Candidate, ResolveError, Summary};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_set_lists_what_it_provides() {
    let mut summary = Summary::default();
    summary
        .capabilities
        .insert("deployment".into(), vec!["puppet".into(), "docker".into()]);
    summary
        .resource_types
        .insert("OS::Controller".into(), vec!["a.yaml".into()]);
    let set = TemplateSet {
        id: 1,
        name: "tripleo".into(),
        templates: vec!["a.yaml".into(), "b.yaml".into()],
        summary,
    };
    let root = holder();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <TemplateSetSummary set /> }
    });
    leptos::task::tick().await;
    assert_eq!(text(&root, "h2"), "tripleo — 2 templates");
    // Leptos marks where a view's dynamic parts go with empty comments.
    assert_eq!(
        find(&root, "table.capabilities tbody tr")
            .outer_html()
            .replace("<!---->", ""),
        "<tr><td>deployment</td><td>puppet, docker</td></tr>"
    );
    assert_eq!(
        text(&root, "table.resource-types thead"),
        "Resource typeTemplates"
    );
    assert_eq!(
        text(&root, "table.resource-types tbody"),
        "OS::Controllera.yaml"
    );
}

#[wasm_bindgen_test]
async fn a_viewer_sees_no_upload_and_nothing_to_resolve_before_a_set() {
    let root = holder();
    let _mounted = leptos::mount::mount_to(root.clone(), || {
        Session::provide();
        view! { <HeatPage /> }
    });
    leptos::task::tick().await;
    let section = find(&root, "section.card.heat[data-page='heat']");
    assert_eq!(text(&section, "h1"), "Heat template sets");
    assert_eq!(
        text(&section, "p.hint"),
        "Templates declare what they provide with capabilities:; an environment's requires: \
         picks one implementation for each resource type listed in its resource_registry."
    );
    let upload = find(&section, "label.button");
    assert!(upload.class_list().contains("hidden"), "nobody signed in");
    assert!(
        upload
            .text_content()
            .unwrap()
            .starts_with("Upload a template set")
    );
    let input: HtmlInputElement = find(&section, "input.template-upload").unchecked_into();
    assert_eq!(
        (input.type_(), input.accept()),
        ("file".into(), ".tar.gz,.tgz,.zip".into())
    );
    assert!(
        section
            .query_selector("textarea.environment-text")
            .unwrap()
            .is_none()
    );
    assert!(section.query_selector("button.resolve").unwrap().is_none());
}

fn candidate(file: &str, matched: bool, reason: &str) -> Candidate {
    Candidate {
        file: file.to_owned(),
        matched,
        reasons: vec![reason.to_owned()],
    }
}

fn choice(kind: &str) -> ResolveError {
    ResolveError {
        resource_type: kind.into(),
        candidates: vec![
            candidate("puppet/c.yaml", true, "deployment: puppet"),
            candidate("docker/c.yaml", false, "deployment: docker, not puppet"),
        ],
        message: "two candidates".into(),
    }
}

#[wasm_bindgen_test]
async fn an_open_choice_offers_only_its_matching_candidates_and_stays_in_place() {
    let (controller, compute) = (choice("OS::Controller"), choice("OS::Compute"));
    let broken = ResolveError {
        resource_type: "OS::Storage".into(),
        candidates: vec![candidate("ceph.yaml", false, "leaves the root")],
        message: "OS::Storage has no valid template".into(),
    };
    let first = TemplateResolution {
        resource_registry: BTreeMap::new(),
        errors: vec![controller.clone(), compute.clone(), broken],
        choices: Vec::new(),
        options: vec![controller.clone(), compute.clone()],
        environment: None,
    };
    let resolution = RwSignal::new(Some(first));
    let picked = RwSignal::new(None::<(String, String)>);
    let root = holder();
    let _mounted = leptos::mount::mount_to(root.clone(), move || {
        view! { <Resolution resolution on_pick=Callback::new(move |p| picked.set(Some(p))) /> }
    });
    leptos::task::tick().await;

    let fieldset = "fieldset.choice[data-resource-type='OS::Compute']";
    let compute_choice = find(&root, fieldset);
    assert_eq!(
        text(&compute_choice, "legend"),
        "Choose the implementation of OS::Compute"
    );
    let radio: HtmlInputElement =
        find(&compute_choice, "input[value='puppet/c.yaml']").unchecked_into();
    assert_eq!(
        (radio.type_(), radio.name()),
        ("radio".into(), "choice-OS::Compute".into())
    );
    assert!(!radio.disabled());
    let docker = find(&compute_choice, "input[value='docker/c.yaml']");
    assert!(docker.has_attribute("disabled"));
    assert_eq!(
        docker.parent_element().unwrap().class_name(),
        "candidate disabled"
    );
    assert_eq!(
        text(&compute_choice, "label.candidate span.muted"),
        " — deployment: puppet"
    );
    // An open choice is asked, not also listed as an error.
    let errors = find(&root, "ul.resolve-errors");
    assert_eq!(errors.children().length(), 1);
    assert_eq!(
        text(&errors, "li.notice.notice-error"),
        "OS::Storage has no valid templateceph.yaml: leaves the root"
    );
    assert!(root.query_selector("a.download").unwrap().is_none());

    // A pick, and the answer to it: the choice still open stays the same
    // element, so the radio used keeps its focus.
    radio.focus().unwrap();
    radio.click();
    assert_eq!(
        picked.get_untracked(),
        Some(("OS::Compute".into(), "puppet/c.yaml".into()))
    );
    resolution.set(Some(TemplateResolution {
        resource_registry: BTreeMap::from([("OS::Controller".into(), "puppet/c.yaml".into())]),
        errors: vec![compute.clone()],
        choices: Vec::new(),
        options: vec![compute],
        environment: None,
    }));
    leptos::task::tick().await;
    assert!(find(&root, fieldset) == compute_choice, "kept in place");
    assert!(
        root.query_selector("fieldset[data-resource-type='OS::Controller']")
            .unwrap()
            .is_none()
    );
    assert_eq!(
        document()
            .active_element()
            .map(|e| e.get_attribute("value")),
        Some(Some("puppet/c.yaml".into()))
    );
    assert_eq!(
        text(&root, "table.registry tbody"),
        "OS::Controllerpuppet/c.yaml"
    );

    // Everything resolved: the environment to download.
    resolution.set(Some(TemplateResolution {
        resource_registry: BTreeMap::new(),
        errors: Vec::new(),
        choices: Vec::new(),
        options: Vec::new(),
        environment: Some("a: b/c\n".into()),
    }));
    leptos::task::tick().await;
    let link = find(&root, "a.button.download");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("data:text/yaml;charset=utf-8,a%3A%20b%2Fc%0A")
    );
    assert_eq!(
        link.get_attribute("download").as_deref(),
        Some("environment.yaml")
    );
    assert_eq!(
        root.query_selector_all("fieldset.choice").unwrap().length(),
        0
    );
}
