//! `Var`, the app's reactive value, in the browser (`wasm-bindgen-test`):
//! effects see its changes, and it is gone with its owner.

#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use leptos::prelude::*;
use mosaic_app::components::var::Var;
use mosaic_app::components::watch::watch;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn effects_see_a_var_change_until_its_owner_is_cleaned_up() {
    // Mounting starts the executor that effects run on.
    mosaic_app::dom::mount(mosaic_app::dom::nothing);
    let owner = Owner::new();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let (count, other) = owner.with(|| {
        let count = Var::new(1);
        let other = Var::new(String::from("a"));
        let seen = seen.clone();
        watch(move || seen.borrow_mut().push(count.get()));
        (count, other)
    });
    leptos::task::tick().await;
    assert_eq!(*seen.borrow(), [1]);
    count.set(2);
    leptos::task::tick().await;
    count.update(|n| *n += 1);
    leptos::task::tick().await;
    assert_eq!(*seen.borrow(), [1, 2, 3]);
    // Read without tracking, or changed elsewhere: the effect does not run.
    other.set(String::from("b"));
    assert_eq!(count.get_untracked(), 3);
    assert_eq!(other.with_untracked(|s| s.clone()), "b");
    leptos::task::tick().await;
    assert_eq!(*seen.borrow(), [1, 2, 3]);

    owner.cleanup();
    assert_eq!(count.try_set(4), Some(4), "gone with its owner");
    // A new value may take the freed slot: the old `Var` still finds it gone.
    let reused = Var::new(7);
    assert_eq!(count.try_set(5), Some(5));
    assert_eq!(reused.get_untracked(), 7);
    leptos::task::tick().await;
    assert_eq!(*seen.borrow(), [1, 2, 3]);
}
