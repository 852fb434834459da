//! The environments that exist, each a link to its page (`markup::lists`).

use leptos::prelude::*;
use mosaic_core::api::Cluster;
use mosaic_core::markup;

use crate::api;
use crate::components::retry::retry_notice;
use crate::dom::{View, dynamic, el, nothing};
use crate::route::Route;

pub fn environments() -> View {
    let clusters = api::fetch(|| vec![api::path::clusters()]);
    let retry = Callback::new(move |()| clusters.refetch());
    dynamic(move || {
        let Some(bodies) = clusters.get() else {
            return nothing();
        };
        match api::answer::<Vec<Cluster>>(&bodies, 0) {
            Ok(list) => {
                let html = markup::lists::environments(&list, &|id| Route::Environment(id).path());
                el("div").html(html.as_str()).into()
            }
            Err(failure) => untrack(|| retry_notice(failure, retry, true)),
        }
    })
}
