//! The form creating a tag for a release or an environment, on the Tags
//! tab and beside the environment's nodes.

use leptos::prelude::*;
use mosaic_core::api::CreateTag;

use crate::api::{self, TagOwner};
use crate::components::action::{ActionError, Request, on_success};

/// The form creating a tag for `owner` (on the tags page, and on the
/// environment's nodes page beside its nodes): its name and whether it has
/// a primary; `created` when the server made it.
#[component]
pub fn NewTagForm(owner: TagOwner, created: Callback<()>) -> impl IntoView {
    let name = RwSignal::new(String::new());
    let primary = RwSignal::new(false);
    let create: Request<CreateTag, _> = Action::new_unsync(move |tag: &CreateTag| {
        let tag = tag.clone();
        async move { api::create_tag(owner, &tag).await }
    });
    // Created: the form is cleared for the next one (what it had a primary
    // stays ticked, as before).
    on_success(create, move |_| {
        name.set(String::new());
        created.run(());
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        create.dispatch(CreateTag {
            name: name.get_untracked().trim().to_owned(),
            has_primary: primary.get_untracked(),
            instances: None,
        });
    };
    view! {
        <div>
            <form class="new-tag" on:submit=submit>
                <h2>"New tag"</h2>
                <label>
                    "Name " <input class="new-tag-name" required placeholder="e.g. mysql" bind:value=name />
                </label>
                <label>
                    <input type="checkbox" class="new-tag-primary" bind:checked=primary />
                    " has a primary (one node is chosen as primary in HA)"
                </label>
                <button type="submit" class="create-tag">"Create the tag"</button>
                <ActionError action=create />
            </form>
        </div>
    }
}
