//! Heat template sets: upload one, see what its templates provide, resolve
//! an environment against it — picking an implementation for each resource
//! type that still has several — and download the resolved environment.
//! The page is core markup (`markup::heat::page`), merged again on every
//! change, with one listener per event type.

use std::collections::BTreeMap;

use mosaic_core::api::{ResolveTemplates, TemplateResolution, TemplateSet};
use mosaic_core::markup::heat;
use web_sys::{Event, HtmlInputElement, HtmlTextAreaElement};

use crate::api;
use crate::components::html::{closest, control, picked_file};
use crate::components::var::Var;
use crate::dom::{View, el};

/// Everything the page holds.
#[derive(Clone, Copy)]
struct Heat {
    set: Var<Option<TemplateSet>>,
    /// Why the last upload failed.
    error: Var<Option<String>>,
    environment: Var<String>,
    /// The candidate picked per resource type.
    picks: Var<BTreeMap<String, String>>,
    resolution: Var<Option<Result<TemplateResolution, String>>>,
}

pub fn heat_page() -> View {
    let heat = Heat {
        set: Var::new(None),
        error: Var::new(None),
        environment: Var::new(String::new()),
        picks: Var::new(BTreeMap::new()),
        resolution: Var::new(None),
    };
    let can_upload = crate::session::session().can(mosaic_core::access::Role::Operator);
    crate::route::set_title("Heat templates");
    el("section")
        .class("card heat")
        .attr("data-page", "heat")
        .merged(move || heat.render(can_upload))
        .on("change", move |ev| heat.changed(&ev))
        .on("input", move |ev| heat.typed(&ev))
        .on("click", move |ev| heat.clicked(&ev))
        .into()
}

impl Heat {
    fn render(self, can_upload: bool) -> mosaic_core::markup::Markup {
        let (set, error, resolution) = (self.set.get(), self.error.get(), self.resolution.get());
        let download = resolution.as_ref().and_then(|r| {
            let text = r.as_ref().ok()?.environment.as_ref()?;
            Some(format!(
                "data:text/yaml;charset=utf-8,{}",
                api::percent_encode(text)
            ))
        });
        self.environment.with(|environment| {
            heat::page(&heat::Page {
                can_upload,
                error: error.as_deref(),
                set: set.as_ref(),
                environment,
                resolution: resolution
                    .as_ref()
                    .map(|r| r.as_ref().map_err(String::as_str)),
                download: download.as_deref(),
            })
        })
    }

    /// A file picked, or a candidate picked.
    fn changed(self, ev: &Event) {
        if let Some(input) = control::<HtmlInputElement>(ev, "input.template-upload") {
            self.upload(&input);
        } else if let Some(input) = control::<HtmlInputElement>(ev, "input.environment-upload") {
            self.load(&input);
        } else if let Some(radio) = control::<HtmlInputElement>(ev, "fieldset.choice input") {
            let choice = radio.closest("fieldset.choice").ok().flatten();
            if let Some(kind) = choice.and_then(|c| c.get_attribute("data-resource-type")) {
                self.picks.update(|p| {
                    p.insert(kind, radio.value());
                });
                self.resolve();
            }
        }
    }

    fn typed(self, ev: &Event) {
        if let Some(area) = control::<HtmlTextAreaElement>(ev, "textarea.environment-text") {
            self.environment.set(area.value());
        }
    }

    fn clicked(self, ev: &Event) {
        if closest(ev, "button.resolve").is_some() {
            self.picks.set(BTreeMap::new());
            self.resolve();
        }
    }

    fn upload(self, input: &HtmlInputElement) {
        let Some(file) = picked_file(input) else {
            return;
        };
        let name = file.name();
        self.error.set(None);
        leptos::task::spawn_local(async move {
            let result = match api::file_bytes(file).await {
                Ok(bytes) => api::upload_template_set(&name, bytes).await,
                Err(e) => Err(e),
            };
            match result {
                Ok(uploaded) => {
                    self.set.set(Some(uploaded));
                    self.picks.set(BTreeMap::new());
                    self.resolution.set(None);
                }
                Err(e) => self.error.set(Some(e.message)),
            }
        });
    }

    /// Reads an environment file into the text.
    fn load(self, input: &HtmlInputElement) {
        let Some(file) = picked_file(input) else {
            return;
        };
        leptos::task::spawn_local(async move {
            if let Ok(bytes) = api::file_bytes(file).await {
                self.environment
                    .set(String::from_utf8_lossy(&bytes).into_owned());
                self.picks.set(BTreeMap::new());
            }
        });
    }

    fn resolve(self) {
        let Some(id) = self.set.with_untracked(|s| s.as_ref().map(|s| s.id)) else {
            return;
        };
        let request = ResolveTemplates {
            environment: self.environment.get_untracked(),
            picks: self.picks.get_untracked(),
        };
        leptos::task::spawn_local(async move {
            let answer = api::resolve_templates(id, &request).await;
            self.resolution.set(Some(answer.map_err(|e| e.message)));
        });
    }
}
