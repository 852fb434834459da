//! An environment's settings, Fuel's Settings tab: groups in weight order,
//! each setting as its control, restrictions and problems shown as the
//! operator types (core's check, the one the server saves with), plugin
//! groups with their switch, Save and Discard.

use leptos::prelude::*;
use mosaic_core::api::{Attributes, PatchAttributes};
use mosaic_core::markup;
use mosaic_core::markup::settings::Outcome;
use mosaic_core::settings::{Evaluation, Input, Settings};
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use crate::api::{self, ApiFailure};
use crate::components::environment_tabs::{Tab, environment_tabs};
use crate::components::html::closest;
use crate::components::loaded::loaded;
use crate::components::notice::error_notice;
use crate::components::retry::retry_notice;
use crate::components::var::Var;
use crate::dom::{View, el, fragment};

pub fn settings_page(cluster_id: i64) -> View {
    let refresh = Var::new(0u32);
    let data = api::fetch(move || {
        refresh.get();
        vec![api::path::of_cluster(cluster_id, "attributes")]
    });
    let reload = Callback::new(move |()| refresh.update(|n| *n += 1));
    el("section")
        .class("card environment settings")
        .attr("data-page", "settings")
        .child(environment_tabs(cluster_id, Tab::Settings))
        .child(loaded(data, "Loading the settings…", move |bodies| {
            let attributes = match api::answer::<Attributes>(&bodies, 0) {
                Ok(attributes) => attributes,
                Err(failure) => return retry_notice(failure, reload, true),
            };
            match Settings::from_editable(&attributes.editable) {
                Ok(settings) => settings_body(cluster_id, settings, attributes, reload),
                Err(e) => error_notice(&e.to_string()),
            }
        }))
        .into()
}

/// The outcome of the last save.
#[derive(Debug, Clone, PartialEq)]
enum Saved {
    Done,
    Refused(ApiFailure),
}

fn settings_body(
    cluster_id: i64,
    settings: Settings,
    attributes: Attributes,
    reload: Callback<()>,
) -> View {
    let saved = Var::new(settings.clone());
    let draft = Var::new(settings);
    let version = Var::new(attributes.version);
    let context = Var::new(attributes.context);
    let evaluation: Memo<Evaluation> =
        Memo::new(move |_| draft.with(|d| context.with_untracked(|c| d.check(c))));
    let changes = Memo::new(move |_| {
        saved.with(|s| {
            draft.with(|d| {
                d.edits_from(s)
                    .values()
                    .filter_map(|g| g.as_object())
                    .map(|g| g.len())
                    .sum::<usize>()
            })
        })
    });
    let outcome = Var::new(None::<Saved>);
    let saving = Var::new(false);
    let save = move || {
        let patch =
            saved.with_untracked(|s| draft.with_untracked(|d| PatchAttributes::between(s, d)));
        saving.set(true);
        leptos::task::spawn_local(async move {
            match api::patch_attributes(cluster_id, &patch, version.get_untracked()).await {
                Ok(answer) => {
                    if let Ok(fresh) = Settings::from_editable(&answer.editable) {
                        saved.set(fresh.clone());
                        draft.set(fresh);
                        version.set(answer.version);
                    }
                    outcome.set(Some(Saved::Done));
                }
                Err(e) => outcome.set(Some(Saved::Refused(e))),
            }
            saving.set(false);
        });
    };
    let groups = move || draft.with(|d| evaluation.with(|e| markup::settings::groups(d, e)));
    let enter = move |ev: Event| {
        if let Some((at, input)) = entered(&ev) {
            draft.update(|d| match at {
                At::Switch(g) => d.switch(g, input == Input::Checked(true)),
                At::Setting(g, a) => d.enter(g, a, input),
            });
        }
    };
    // A viewer reads the settings; an operator changes them.
    let editable = crate::session::session().can(mosaic_core::access::Role::Operator);
    let bar = move || {
        let outcome = outcome.get();
        markup::settings::bar(&markup::settings::Bar {
            editable,
            changes: changes.get(),
            problems: evaluation.with(|e| e.problems.len()),
            saving: saving.get(),
            outcome: outcome.as_ref().map(|o| match o {
                Saved::Done => Outcome::Saved,
                Saved::Refused(f) => Outcome::Refused(&f.message, &f.problems),
            }),
        })
    };
    let clicked = move |ev: Event| {
        if closest(&ev, "button.save-settings").is_some() {
            save();
        } else if closest(&ev, "button.discard-settings").is_some() {
            draft.set(saved.get_untracked());
            outcome.set(None);
        } else if closest(&ev, "button.reload-settings").is_some() {
            reload.run(());
        }
    };
    let fieldset = el("fieldset")
        .class("settings-groups plain")
        .merged(groups)
        .on("input", enter)
        .on("change", enter);
    let fieldset = match editable {
        true => fieldset,
        false => fieldset.attr("disabled", ""),
    };
    fragment([
        el("div").merged(bar).on("click", clicked).into(),
        fieldset.into(),
    ])
}

/// What an input event changed.
enum At {
    /// A group's on/off switch (tree index).
    Switch(usize),
    /// A setting, by group and attribute (tree indices).
    Setting(usize, usize),
}

/// Where `ev` happened and what it entered: the setting's control is found
/// by its row's `data-a` and its group's `data-g` (`markup::settings`).
/// Text is taken from `input` events, choices and ticks from `change`.
fn entered(ev: &Event) -> Option<(At, Input)> {
    let target: Element = ev.target()?.dyn_into().ok()?;
    let index = |selector: &str, name: &str| -> Option<usize> {
        target
            .closest(selector)
            .ok()??
            .get_attribute(name)?
            .parse()
            .ok()
    };
    let g = index("[data-g]", "data-g")?;
    let typing = ev.type_() == "input";
    let input = if let Some(input) = target.dyn_ref::<HtmlInputElement>() {
        match input.type_().as_str() {
            "checkbox" if !typing => Input::Checked(input.checked()),
            "radio" if !typing => Input::Choice(input.value().parse().ok()?),
            "checkbox" | "radio" => return None,
            _ if typing => Input::Text(input.value()),
            _ => return None,
        }
    } else if let Some(select) = target.dyn_ref::<HtmlSelectElement>() {
        Input::Choice(select.value().parse().ok()?)
    } else if let (Some(area), true) = (target.dyn_ref::<HtmlTextAreaElement>(), typing) {
        Input::Text(area.value())
    } else {
        return None;
    };
    if target.closest(".switch").ok()?.is_some() {
        return Some((At::Switch(g), input));
    }
    Some((At::Setting(g, index("[data-a]", "data-a")?), input))
}
