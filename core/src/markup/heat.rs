//! A Heat template set — what its templates provide — and an environment
//! resolved against it: a radio button per candidate of each open choice,
//! the errors, the resource registry it resolved to.

use std::collections::BTreeMap;

use super::Markup;
use crate::api::{TemplateResolution, TemplateSet};
use crate::heat::ResolveError;

/// What the Heat page shows.
#[derive(Debug, Clone, Copy)]
pub struct Page<'a> {
    /// The user may upload a template set.
    pub can_upload: bool,
    /// Why the last upload failed.
    pub error: Option<&'a str>,
    /// The set uploaded, with the environment resolved against it.
    pub set: Option<&'a TemplateSet>,
    /// The environment's text, as typed or loaded.
    pub environment: &'a str,
    /// The last resolution, or why it failed.
    pub resolution: Option<Result<&'a TemplateResolution, &'a str>>,
    /// The resolved environment's download link, when there is one.
    pub download: Option<&'a str>,
}

/// The Heat page: what templates declare, the upload (`input.template-upload`),
/// then for the set uploaded, its summary, the environment
/// (`input.environment-upload`, `textarea.environment-text`), Resolve
/// (`button.resolve`) and the resolution.
pub fn page(p: &Page<'_>) -> Markup {
    let mut m = Markup::new();
    m.leaf("h1", "Heat template sets");
    m.open("p")
        .attr("class", "hint")
        .text("Templates declare what they provide with ");
    m.leaf("code", "capabilities:")
        .text("; an environment's ")
        .leaf("code", "requires:");
    m.text(" picks one implementation for each resource type listed in its ")
        .leaf("code", "resource_registry")
        .text(".")
        .close("p");
    file_button(
        &mut m,
        p.can_upload,
        "Upload a template set (.tar.gz or .zip)",
        "template-upload",
        ".tar.gz,.tgz,.zip",
    );
    if let Some(error) = p.error {
        m.alert(error);
    }
    let Some(set) = p.set else {
        return m;
    };
    m.append(template_set(set));
    m.leaf("h2", "Environment");
    file_button(
        &mut m,
        true,
        "Load an environment file",
        "environment-upload",
        ".yaml,.yml",
    );
    m.open("textarea")
        .attr("class", "environment-text")
        .attr("rows", "10")
        .attr(
            "placeholder",
            "requires:\n  deployment: puppet\nresource_registry:\n  \
             OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]",
        )
        // The parser drops one newline right after the start tag: this one,
        // not the text's own.
        .text("\n")
        .text(p.environment)
        .close("textarea");
    m.open("button")
        .attr("class", "resolve")
        .text("Resolve")
        .close("button");
    match p.resolution {
        Some(Ok(r)) => m.append(resolution(r, p.download)),
        Some(Err(message)) => m.alert(message),
        None => &mut m,
    };
    m
}

/// A file input dressed as a button.
fn file_button(m: &mut Markup, shown: bool, label: &str, class: &'static str, accept: &str) {
    m.open("label")
        .classes(&[("button", true), ("hidden", !shown)])
        .text(label);
    m.open("input")
        .attr("type", "file")
        .attr("class", class)
        .attr("accept", accept)
        .close("label");
}

/// The set's name and size, its capabilities and its resource types.
pub fn template_set(set: &TemplateSet) -> Markup {
    let mut m = Markup::new();
    m.open("h2").text(&set.name).text(" — ");
    m.text(&set.templates.len().to_string())
        .text(" templates")
        .close("h2");
    let summary = &set.summary;
    lists(
        &mut m,
        "capabilities",
        "Capability",
        "Values",
        &summary.capabilities,
    );
    lists(
        &mut m,
        "resource-types",
        "Resource type",
        "Templates",
        &summary.resource_types,
    );
    m
}

/// A two-column table, a list of values per key.
fn lists(
    m: &mut Markup,
    class: &'static str,
    key: &str,
    values: &str,
    rows: &BTreeMap<String, Vec<String>>,
) {
    m.open("table")
        .attr("class", class)
        .open("thead")
        .open("tr");
    m.leaf("th", key)
        .leaf("th", values)
        .close("tr")
        .close("thead");
    m.open("tbody");
    for (k, v) in rows {
        m.open("tr")
            .leaf("td", k)
            .leaf("td", &v.join(", "))
            .close("tr");
    }
    m.close("tbody").close("table");
}

/// The resolution. Each open choice is a `fieldset.choice` whose
/// `data-resource-type` names the type, holding a radio button per
/// candidate (`value` is the template; disabled when it does not match);
/// `download` is the resolved environment's link, when there is one.
pub fn resolution(resolution: &TemplateResolution, download: Option<&str>) -> Markup {
    let mut m = Markup::new();
    m.open("div").attr("class", "resolution");
    for option in &resolution.options {
        choice(&mut m, option);
    }
    m.open("ul").attr("class", "resolve-errors");
    let open = |e: &&ResolveError| {
        let kind = &e.resource_type;
        resolution.options.iter().any(|o| &o.resource_type == kind)
    };
    for e in resolution.errors.iter().filter(|e| !open(e)) {
        m.open("li")
            .attr("class", "notice notice-error")
            .text(&e.message);
        m.open("ul");
        for c in &e.candidates {
            m.open("li").text(&c.file).text(": ");
            m.text(&c.reasons.join("; ")).close("li");
        }
        m.close("ul").close("li");
    }
    m.close("ul");
    m.open("table")
        .attr("class", "registry")
        .open("thead")
        .open("tr");
    m.leaf("th", "Resource type").leaf("th", "Resolved to");
    m.close("tr").close("thead").open("tbody");
    for (kind, template) in &resolution.resource_registry {
        m.open("tr")
            .leaf("td", kind)
            .leaf("td", template)
            .close("tr");
    }
    m.close("tbody").close("table");
    if let Some(href) = download {
        m.open("a")
            .attr("class", "button download")
            .attr("href", href);
        m.attr("download", "environment.yaml");
        m.text("Download the resolved environment").close("a");
    }
    m.close("div");
    m
}

fn choice(m: &mut Markup, option: &ResolveError) {
    let kind = &option.resource_type;
    m.open("fieldset").attr("class", "choice");
    m.attr("data-resource-type", kind).open("legend");
    m.text("Choose the implementation of ")
        .text(kind)
        .close("legend");
    let name = format!("choice-{kind}");
    for c in &option.candidates {
        m.open("label");
        m.attr(
            "class",
            if c.matched {
                "candidate"
            } else {
                "candidate disabled"
            },
        );
        m.open("input").attr("type", "radio").attr("name", &name);
        m.attr("value", &c.file).flag("disabled", !c.matched);
        m.text(&c.file)
            .open("span")
            .attr("class", "muted")
            .text(" — ");
        m.text(&c.reasons.join("; ")).close("span").close("label");
    }
    m.close("fieldset");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heat::{Candidate, Summary};

    fn candidate(file: &str, matched: bool, reason: &str) -> Candidate {
        Candidate {
            file: file.to_owned(),
            matched,
            reasons: vec![reason.to_owned()],
        }
    }

    #[test]
    fn a_set_lists_what_it_provides() {
        let mut summary = Summary::default();
        summary
            .capabilities
            .insert("deployment".into(), vec!["puppet".into(), "docker".into()]);
        let set = TemplateSet {
            id: 1,
            name: "tripleo".into(),
            templates: vec!["a.yaml".into(), "b.yaml".into()],
            summary,
        };
        let html = template_set(&set).into_string();
        assert!(html.starts_with("<h2>tripleo — 2 templates</h2>"), "{html}");
        assert!(html.contains("<tr><td>deployment</td><td>puppet, docker</td></tr>"));
        assert!(html.contains(r#"<table class="resource-types">"#));

        let empty = page(&Page {
            can_upload: false,
            error: Some("not an archive"),
            set: None,
            environment: "",
            resolution: None,
            download: None,
        })
        .into_string();
        assert!(
            empty.contains("<label class=\"button hidden\">Upload a template set"),
            "{empty}"
        );
        assert!(empty.ends_with("role=\"alert\">not an archive</div>"));
        let loaded = page(&Page {
            can_upload: true,
            error: None,
            set: Some(&set),
            environment: "requires: {a: <b>}",
            resolution: Some(Err("bad environment")),
            download: None,
        })
        .into_string();
        assert!(loaded.contains("<h2>tripleo — 2 templates</h2>"));
        assert!(loaded.contains(
            ">\nrequires: {a: &lt;b&gt;}</textarea><button class=\"resolve\">Resolve</button>"
        ));
        assert!(loaded.ends_with("role=\"alert\">bad environment</div>"));
    }

    #[test]
    fn an_open_choice_offers_only_its_matching_candidates() {
        let option = ResolveError {
            resource_type: "OS::Controller".into(),
            candidates: vec![
                candidate("puppet/c.yaml", true, "deployment: puppet"),
                candidate("docker/c.yaml", false, "deployment: docker, not puppet"),
            ],
            message: "two candidates".into(),
        };
        let resolution = TemplateResolution {
            resource_registry: BTreeMap::new(),
            errors: vec![option.clone()],
            choices: Vec::new(),
            options: vec![option],
            environment: None,
        };
        let html = super::resolution(&resolution, None).into_string();
        assert!(
            html.contains(r#"data-resource-type="OS::Controller""#),
            "{html}"
        );
        assert!(html.contains(
            r#"<input type="radio" name="choice-OS::Controller" value="puppet/c.yaml">"#
        ));
        assert!(html.contains(r#"value="docker/c.yaml" disabled="">"#));
        assert!(
            !html.contains("two candidates"),
            "an open choice is not also an error"
        );
        assert!(!html.contains("download"));
    }
}
