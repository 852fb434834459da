//! The Plugins page's pieces and the environments list in headless
//! Chromium (`wasm-bindgen-test`): what a row shows, the two-click
//! uninstall, the upload's outcome and a refused package's report.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::components::plugin_upload::{Installed, ValidationReport};
use mosaic_app::pages::environments::EnvironmentList;
use mosaic_app::pages::plugins::PluginTable;
use mosaic_app::records::{Record, Records};
use mosaic_core::api::{Cluster, PluginKind, PluginRelease, PluginSummary};
use mosaic_core::name::Mode;
use mosaic_core::plugin::{Diagnostic, Report, Severity};
use wasm_bindgen_test::*;
use web_sys::Element;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn plugin(id: i64, name: &str, kind: PluginKind, releases: usize) -> PluginSummary {
    PluginSummary {
        id,
        name: name.to_owned(),
        title: name.to_ascii_uppercase(),
        version: "1.0.0".to_owned(),
        package_version: "5.0.0".to_owned(),
        description: String::new(),
        kind,
        releases: (0..releases)
            .map(|r| PluginRelease {
                id: r as i64 + 1,
                name: "Fuel".to_owned(),
                version: "9.0".to_owned(),
                operating_system: "ubuntu".to_owned(),
            })
            .collect(),
        used_by: vec!["lab".to_owned(), "prod".to_owned()],
        warnings: Vec::new(),
    }
}

/// `list` as a page holds it after its answer.
fn records<T: Record>(list: Vec<T>) -> Records<T> {
    let records = Records::new();
    records.answer(list);
    records
}

fn table(list: Records<PluginSummary>, admin: bool) -> Element {
    mounted(move || {
        view! { <PluginTable list admin=Signal::from(admin) changed=Callback::new(|()| ()) /> }
    })
}

#[wasm_bindgen_test]
async fn a_release_plugin_links_its_releases_and_an_idle_extension_says_why() {
    let list = records(vec![
        plugin(1, "openstack", PluginKind::Release, 1),
        plugin(2, "contrail", PluginKind::Extension, 0),
    ]);
    let root = table(list, false);
    let row = find(&root, "tr[data-plugin='openstack']");
    assert_eq!(row.get_attribute("data-key").as_deref(), Some("1"));
    assert_eq!(text(&row, "td strong"), "OPENSTACK");
    assert_eq!(text(&row, "td .muted"), "openstack");
    assert_eq!(
        row.text_content().unwrap(),
        "OPENSTACKopenstack1.0.0releaseFuel (9.0) matrix · tagslab, prod0"
    );
    let links = row.query_selector_all("a").unwrap();
    assert_eq!(links.length(), 2);
    let href = |a: &Element| a.get_attribute("href").unwrap();
    assert_eq!(
        href(&find(&row, "a:not(.release-tags)")),
        "/releases/1/matrix"
    );
    assert_eq!(href(&find(&row, "a.release-tags")), "/releases/1/tags");
    let idle = text(
        &root,
        "tr[data-plugin='contrail'] strong.notice.notice-warn.idle-plugin",
    );
    assert!(
        idle.starts_with("CONTRAIL 1.0.0 fits no installed release"),
        "{idle}"
    );
    assert_eq!(
        text(&root, "tr[data-plugin='contrail'] td:nth-child(3)"),
        "extension"
    );
    assert!(
        root.query_selector("button.uninstall").unwrap().is_none(),
        "a viewer is not offered it"
    );
    let heads: Vec<String> = (0..7)
        .map(|i| {
            let th = root.query_selector_all("thead th").unwrap().get(i).unwrap();
            th.text_content().unwrap()
        })
        .collect();
    assert_eq!(
        heads,
        [
            "Plugin", "Version", "Kind", "Releases", "Used by", "Warnings", "Actions"
        ]
    );
}

#[wasm_bindgen_test]
async fn no_plugin_is_said_in_words_not_as_an_empty_table() {
    let list = records(Vec::new());
    let root = table(list, true);
    assert_eq!(text(&root, "p.empty"), "No plugin is installed.");
    assert!(root.query_selector("table").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn uninstalling_asks_first_in_place() {
    let list = records(vec![
        plugin(1, "a", PluginKind::Release, 0),
        plugin(2, "b", PluginKind::Release, 0),
    ]);
    let root = table(list, true);
    let button = find(&root, "[data-plugin='a'] button.uninstall");
    assert_eq!(button.text_content().unwrap(), "Uninstall");
    assert_eq!(button.class_name(), "uninstall");
    click(&root, "[data-plugin='a'] button.uninstall");
    leptos::task::tick().await;
    assert_eq!(button.text_content().unwrap(), "Confirm uninstall");
    assert_eq!(button.class_name(), "uninstall danger");
    // Asking about another plugin takes the question back from the first.
    click(&root, "[data-plugin='b'] button.uninstall");
    leptos::task::tick().await;
    assert_eq!(button.text_content().unwrap(), "Uninstall");
    assert_eq!(
        text(&root, "[data-plugin='b'] button.uninstall"),
        "Confirm uninstall"
    );
    assert!(
        find(&root, "[data-plugin='a'] button.uninstall") == button,
        "the button is the same element"
    );
}

#[wasm_bindgen_test]
async fn a_new_answer_changes_rows_in_place() {
    let list = records(vec![
        plugin(1, "a", PluginKind::Release, 0),
        plugin(2, "b", PluginKind::Release, 0),
    ]);
    let root = table(list, true);
    let row = find(&root, "[data-plugin='b']");
    let mut b = plugin(2, "b", PluginKind::Release, 0);
    b.used_by = vec!["staging".to_owned()];
    b.warnings = vec![Diagnostic {
        severity: Severity::Warning,
        file: "metadata.yaml".to_owned(),
        line: Some(3),
        path: None,
        message: "old".to_owned(),
    }];
    list.answer(vec![b]);
    leptos::task::tick().await;
    assert!(root.query_selector("[data-plugin='a']").unwrap().is_none());
    assert!(find(&root, "[data-plugin='b']") == row, "the row stays");
    assert_eq!(text(&row, "td:nth-child(5)"), "staging");
    let warnings = find(&row, "td:nth-child(6)");
    assert_eq!(warnings.text_content().unwrap(), "1");
    assert_eq!(
        warnings.get_attribute("title").as_deref(),
        Some("metadata.yaml:3: old")
    );
}

#[wasm_bindgen_test]
async fn an_upload_says_what_was_installed() {
    let release = plugin(1, "openstack", PluginKind::Release, 1);
    let root = mounted(move || view! { <Installed plugin=release /> });
    let notice = find(&root, "p.notice.notice-ok[role='status']");
    assert_eq!(notice.text_content().unwrap(), "Installed OPENSTACK 1.0.0.");
    let idle = plugin(2, "contrail", PluginKind::Extension, 0);
    let root = mounted(move || view! { <Installed plugin=idle /> });
    let why = text(
        &root,
        "p.notice.notice-warn.idle-plugin[role='status'] strong",
    );
    assert!(why.starts_with("CONTRAIL 1.0.0 fits"), "{why}");
}

#[wasm_bindgen_test]
async fn a_refused_package_lists_every_problem_with_the_summary() {
    let diagnostic = |severity, line| Diagnostic {
        severity,
        file: "node_roles.yaml".into(),
        line,
        path: Some("mistaken.limits".into()),
        message: "limits.min: expected a number <or> an expression".into(),
    };
    let report = Report::new(
        None,
        Vec::new(),
        vec![
            diagnostic(Severity::Error, Some(5)),
            diagnostic(Severity::Warning, None),
        ],
    );
    let root = mounted(move || view! { <ValidationReport report /> });
    let items = root
        .query_selector_all(".validation-report ul.diagnostics li")
        .unwrap();
    assert_eq!(items.length(), 2);
    let error = find(&root, "li.diagnostic.error");
    assert_eq!(text(&error, ".severity"), "error");
    assert_eq!(
        text(&error, "code.place"),
        "node_roles.yaml:5 (mistaken.limits)"
    );
    assert_eq!(
        text(&error, ".message"),
        "limits.min: expected a number <or> an expression"
    );
    assert_eq!(text(&root, "li.diagnostic.warning .severity"), "warning");
    assert_eq!(
        text(&root, ".validation-report > p.report-summary"),
        "1 error, 1 warning"
    );
}

#[wasm_bindgen_test]
async fn environments_link_to_their_pages() {
    let lab = Cluster {
        id: 7,
        name: "lab <1>".into(),
        release_id: 1,
        components: Vec::new(),
        mode: Mode::default(),
        plugins: Vec::new(),
        release: None,
        status: Default::default(),
    };
    let list = records(vec![lab]);
    let root = mounted(move || view! { <EnvironmentList list /> });
    let item = find(
        &root,
        "section.card.environments[data-page='environments'] li[data-environment='lab <1>']",
    );
    assert_eq!(text(&root, "section h1"), "Environments");
    assert_eq!(
        find(&item, "a").get_attribute("href").as_deref(),
        Some("/environments/7")
    );
    assert_eq!(text(&item, "a"), "lab <1>");
    assert_eq!(
        text(&item, "span.muted"),
        format!(" — 0 components, {}", Mode::default().as_str())
    );
    list.answer(Vec::new());
    leptos::task::tick().await;
    assert!(
        root.query_selector("section").unwrap().is_none(),
        "nothing without environments"
    );
    assert_eq!(root.text_content().unwrap(), "");
}
