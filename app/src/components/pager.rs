//! Previous and Next over pages of a table (core's `nodes::PAGE` rows
//! each), shown only when there are two pages or more: the node table's
//! and the Deploy tab's.

use leptos::prelude::*;

/// The pager of `pages` pages, `page` the one shown (from 0); `label`
/// names it for screen readers ("Pages of nodes").
#[component]
pub fn Pager(page: RwSignal<usize>, pages: Memo<usize>, label: &'static str) -> impl IntoView {
    view! {
        <Show when=move || { pages.get() >= 2 }>
            <nav class="pages" aria-label=label>
                <button
                    class="previous-page"
                    disabled=move || page.get() == 0
                    on:click=move |_| page.update(|p| *p = p.saturating_sub(1))
                >
                    "Previous"
                </button>
                <span>{move || format!(" Page {} of {} ", page.get() + 1, pages.get())}</span>
                <button
                    class="next-page"
                    disabled=move || { page.get() + 1 >= pages.get() }
                    on:click=move |_| page.update(|p| *p += 1)
                >
                    "Next"
                </button>
            </nav>
        </Show>
    }
}
