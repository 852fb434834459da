//! Effects, all of one type: each closure type given to `Effect::new` is
//! its own copy of the effect machinery in the download, about 2 KB
//! (docs/benchmarks.md, "App size").

use leptos::prelude::Effect;

/// Runs `f` now and again whenever a signal it read changes.
pub fn watch(f: impl FnMut() + 'static) {
    watch_boxed(Box::new(f));
}

fn watch_boxed(f: Box<dyn FnMut()>) {
    Effect::new(f);
}

/// Like [`watch`], for an effect that goes on from what its last run
/// left: `step` gets it (none on the first run) and returns what to keep.
pub fn watch_from<T: 'static>(mut step: impl FnMut(Option<T>) -> Option<T> + 'static) {
    let mut kept = None;
    watch(move || kept = step(kept.take()));
}

/// Runs `then` (untracked) each time a signal `track` reads changes, not
/// when called: for what follows a value that was already used to start.
pub fn on_change(track: impl Fn() + 'static, mut then: impl FnMut() + 'static) {
    watch_from(move |seen: Option<()>| {
        track();
        if seen.is_some() {
            leptos::prelude::untrack(&mut then);
        }
        Some(())
    });
}
