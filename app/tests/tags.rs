//! Component tests in headless Chromium (`wasm-bindgen-test`): the tags
//! table offers only what may be done with each tag, and follows new lists
//! in place; the new-tag form.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::api::TagOwner;
use mosaic_app::components::new_tag_form::NewTagForm;
use mosaic_app::pages::tags::{Change, TagTable};
use mosaic_app::records::Records;
use mosaic_core::api::TagView;
use mosaic_core::tag::own_source;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn input(selector: &str) -> HtmlInputElement {
    find(&page(), selector).unchecked_into()
}

fn tag(name: &str, source: &str, deletable: bool, has_primary: bool) -> TagView {
    TagView {
        name: name.to_owned(),
        has_primary,
        instances: None,
        source: source.to_owned(),
        deletable,
        nodes: 3,
        instance_nodes: Vec::new(),
    }
}

#[wasm_bindgen_test]
async fn only_the_tags_created_here_can_be_changed_and_rows_follow_in_place() {
    let list = Records::new();
    list.answer(vec![
        tag("controller", "release", false, false),
        tag("mysql", "environment", true, true),
        tag("db", "environment", false, false),
    ]);
    // The server's answer after `change`.
    let answer = move |change: fn(&mut Vec<TagView>)| {
        let mut now = list.all().get_untracked();
        change(&mut now);
        list.answer(now);
    };
    let failure = RwSignal::new(None::<(String, String)>);
    let changes = RwSignal::new(Vec::<Change>::new());
    let changed = Callback::new(move |c| changes.update(|all| all.push(c)));
    let _mounted = leptos::mount::mount_to(holder(), move || {
        view! {
            <TagTable
                list
                own=own_source(false)
                editable=Signal::from(true)
                failure=Signal::from(failure)
                changed
            />
        }
    });
    settle().await;

    assert_eq!(text(&page(), ".tags-table caption"), "Tags");
    assert_eq!(
        text(&page(), "tr[data-tag='controller']"),
        "controllerthe release3read-only"
    );
    assert!(input("tr[data-tag='controller'] input.has-primary").disabled());
    let mysql = input("tr[data-tag='mysql'] input.has-primary");
    assert_eq!(
        mysql.get_attribute("aria-label").as_deref(),
        Some("mysql has a primary")
    );
    assert!(mysql.checked() && !mysql.disabled());
    assert_eq!(
        text(&page(), "tr[data-tag='mysql'] td:nth-child(2)"),
        "created here"
    );
    assert_eq!(
        text(&page(), "tr[data-tag='mysql'] button.delete-tag.danger"),
        "Delete"
    );
    assert_eq!(
        text(&page(), "tr[data-tag='db'] .muted"),
        "Named by a role: it cannot be deleted."
    );
    assert!(!input("tr[data-tag='db'] input.has-primary").disabled());

    // The box asks for the change; the row follows the list that comes back.
    mysql.click();
    find(&page(), "tr[data-tag='mysql'] button.delete-tag")
        .unchecked_ref::<web_sys::HtmlElement>()
        .click();
    assert_eq!(
        changes.get_untracked(),
        [
            Change::Primary("mysql".into(), false),
            Change::Delete("mysql".into())
        ]
    );
    answer(|l| l[1].has_primary = false);
    failure.set(Some(("mysql".into(), "nodes carry it".into())));
    settle().await;
    let same = input("tr[data-tag='mysql'] input.has-primary");
    assert!(same == mysql, "the row changed in place");
    assert!(!same.checked());
    assert_eq!(
        text(&page(), "tr[data-tag='mysql'] .notice-error[role='alert']"),
        "nodes carry it"
    );
    // A box the server did not change goes back to what the list says.
    same.set_checked(true);
    answer(|_| {});
    settle().await;
    assert!(!same.checked());

    answer(|l| l.retain(|t| t.name != "mysql"));
    settle().await;
    assert!(!exists(&page(), "tr[data-tag='mysql']"));
    assert!(exists(&page(), "tr[data-tag='db']"));
}

#[wasm_bindgen_test]
async fn the_new_tag_form_has_a_name_and_a_primary_box() {
    let _mounted = leptos::mount::mount_to(holder(), move || {
        view! { <NewTagForm owner=TagOwner::Environment(1) created=Callback::new(|()| {}) /> }
    });
    settle().await;
    assert_eq!(text(&page(), "form.new-tag h2"), "New tag");
    let name = input("form.new-tag input.new-tag-name");
    assert!(name.required());
    assert_eq!(name.placeholder(), "e.g. mysql");
    assert_eq!(
        text(&page(), "form.new-tag label:nth-of-type(2)"),
        " has a primary (one node is chosen as primary in HA)"
    );
    assert!(!input("input.new-tag-primary").checked());
    assert_eq!(
        text(&page(), "button.create-tag[type='submit']"),
        "Create the tag"
    );
    assert!(!exists(&page(), "form.new-tag .notice-error"));
}
