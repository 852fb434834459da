//! Component tests in headless Chromium (`wasm-bindgen-test`): the
//! compatibility matrix's table — every cell with its row's and column's
//! component and type and its explanation, groups and dead components
//! marked, a picked component's row and column lit in place.

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use mosaic_app::components::matrix_table::MatrixTable;
use mosaic_core::component::{
    Component, ComponentType, DEFAULT_REQUIRED_TYPES, Engine, Highlight, Matrix, Registry, Source,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

mod common;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The component-registry spec's example.
const SEED: &str = r#"
- {name: 'hypervisor:libvirt:kvm', label: KVM, compatible: [{name: 'hypervisor:libvirt:qemu'}]}
- {name: 'hypervisor:libvirt:qemu', label: QEMU}
- {name: 'hypervisor:vmware', label: vCenter}
- {name: 'network:neutron:core:contrail', label: Contrail, incompatible: [{name: 'network:neutron:core:ml2', message: 'Contrail replaces ML2'}]}
- {name: 'network:neutron:core:ml2', label: ML2}
- {name: 'network:neutron:ml2:dvs', label: DVS, requires: [{name: 'network:neutron:core:ml2'}, {name: 'hypervisor:vmware'}]}
- {name: 'storage:block:ceph', label: Ceph, incompatible: [{name: 'storage:block:lvm'}]}
- {name: 'storage:block:lvm', label: LVM}
- {name: 'storage:object:never', requires: [{none_of: {items: ['hypervisor:*']}}]}
"#;

fn attr(css: &str, name: &str) -> Option<String> {
    find(&page(), css).get_attribute(name)
}

fn cell(row: &str, column: &str) -> String {
    format!("tr[data-row='{row}'] td[data-column='{column}']")
}

#[wasm_bindgen_test]
async fn the_table_marks_its_cells_and_lights_a_picked_component() {
    let components: Vec<Component> = mosaic_core::yaml::parse("seed.yaml", SEED).unwrap();
    let registry = Registry::new([(Source("release".into()), components)]).unwrap();
    let engine = Engine::new(registry, &DEFAULT_REQUIRED_TYPES);
    let table = Matrix::of(&engine).table(engine.registry());
    let rows = RwSignal::new(None::<ComponentType>);
    let highlight = RwSignal::new(Highlight::default());
    let holder: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&holder).unwrap();
    let _mounted = leptos::mount::mount_to(holder, move || {
        view! {
            <MatrixTable
                table
                rows
                columns=None
                highlight
                on_pick=Callback::new(move |i| highlight.update(|h| *h = h.pick(i)))
            />
        }
    });
    leptos::task::tick().await;

    let (contrail, ml2) = ("network:neutron:core:contrail", "network:neutron:core:ml2");
    let x = find(&page(), &cell(contrail, ml2));
    assert_eq!(x.text_content().unwrap(), "X");
    assert_eq!(x.class_name(), "cell x");
    assert_eq!(x.get_attribute("title").unwrap(), "Contrail replaces ML2");
    assert_eq!(x.get_attribute("data-column-type").unwrap(), "network");
    assert_eq!(
        (x.get_attribute("data-i"), x.get_attribute("data-j")),
        (Some("3".into()), Some("4".into()))
    );
    let row = format!("tr[data-row='{contrail}']");
    assert_eq!(attr(&row, "data-row-type").unwrap(), "network");
    assert_eq!(attr(&row, "class").unwrap(), "group-start-row");
    assert!(
        !find(&page(), &format!("tr[data-row='{ml2}']"))
            .class_list()
            .contains("group-start-row")
    );
    // The first column of each type starts a group; the second does not.
    assert_eq!(
        attr("th[data-column='hypervisor:libvirt:kvm']", "class").unwrap(),
        "column group-start-column"
    );
    assert_eq!(
        attr("th[data-column='hypervisor:libvirt:qemu']", "class").unwrap(),
        "column"
    );
    // It requires no hypervisor, and one is always chosen.
    assert_eq!(
        attr("th[data-column='storage:object:never']", "class").unwrap(),
        "column dead"
    );
    assert_eq!(attr("th[data-i='8']", "class").unwrap(), "row dead");
    assert_eq!(count(&page(), "button.pick-row"), 9);
    assert_eq!(count(&page(), "td.lit"), 0);

    // The filters' choice is the holder's, for the stylesheet.
    assert_eq!(attr(".matrix-holder", "data-rows"), None);
    rows.set(Some(ComponentType::Storage));
    leptos::task::tick().await;
    assert_eq!(
        attr(".matrix-holder", "data-rows").as_deref(),
        Some("storage")
    );

    // A pick lights the row and the column, in place.
    let button = format!("{row} button.pick-row");
    find(&page(), &button)
        .unchecked_into::<HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert_eq!(attr(&button, "aria-pressed").as_deref(), Some("true"));
    assert_eq!(count(&page(), "td.lit"), 2 * 9 - 1);
    assert!(
        find(&page(), &cell(ml2, contrail))
            .class_list()
            .contains("lit")
    );
    assert!(
        find(&page(), &format!("th.column[data-column='{contrail}']"))
            .class_list()
            .contains("lit")
    );
    assert!(
        find(&page(), &format!("{row} th.row"))
            .class_list()
            .contains("lit")
    );
    assert!(
        find(&page(), &cell(contrail, ml2)) == x,
        "cells are lit in place, not rebuilt"
    );
    // Another pick moves the light; the same pick again puts it out.
    find(&page(), &format!("tr[data-row='{ml2}'] button.pick-row"))
        .unchecked_into::<HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert_eq!(attr(&button, "aria-pressed").as_deref(), Some("false"));
    assert!(
        !find(&page(), &format!("{row} th.row"))
            .class_list()
            .contains("lit")
    );
    assert_eq!(count(&page(), "td.lit"), 2 * 9 - 1);
    find(&page(), &format!("tr[data-row='{ml2}'] button.pick-row"))
        .unchecked_into::<HtmlElement>()
        .click();
    leptos::task::tick().await;
    assert_eq!(count(&page(), ".lit"), 0);
}
