//! The installed plugins as a table: per plugin its title and name,
//! version, kind, the releases it ships or fits (a release plugin's with
//! links to their matrix and tags), why an extension is idle, the
//! environments using it, its install warnings and — for an admin — the
//! button uninstalling it, which asks for a second click first; and the
//! upload of a package with what became of it.

use super::Markup;
use crate::api::{PluginKind, PluginSummary};
use crate::plugin::Report;

/// What the table shows beyond the plugins.
#[derive(Clone, Copy)]
pub struct Plugins<'a> {
    pub list: &'a [PluginSummary],
    /// The user may uninstall plugins.
    pub admin: bool,
    /// The plugin (by id) whose Uninstall was clicked once.
    pub confirming: Option<i64>,
    /// The plugin being uninstalled.
    pub busy: Option<i64>,
    /// A plugin not uninstalled, and why.
    pub failure: Option<(i64, &'a str)>,
    /// The paths of a release's (by id) matrix and tags pages.
    pub matrix: &'a dyn Fn(i64) -> String,
    pub tags: &'a dyn Fn(i64) -> String,
}

const HEADS: [&str; 6] = [
    "Plugin", "Version", "Kind", "Releases", "Used by", "Warnings",
];

pub fn table(p: &Plugins<'_>) -> Markup {
    let mut m = Markup::new();
    if p.list.is_empty() {
        m.open("p")
            .attr("class", "empty")
            .text("No plugin is installed.")
            .close("p");
        return m;
    }
    m.open("table")
        .attr("class", "plugin-table")
        .open("thead")
        .open("tr");
    for head in HEADS {
        m.leaf("th", head);
    }
    m.open("th")
        .attr("scope", "col")
        .text("Actions")
        .close("th");
    m.close("tr").close("thead").open("tbody");
    for plugin in p.list {
        row(&mut m, p, plugin);
    }
    m.close("tbody").close("table");
    m
}

fn row(m: &mut Markup, p: &Plugins<'_>, plugin: &PluginSummary) {
    m.open("tr")
        .attr("data-plugin", &plugin.name)
        .num_i64("data-key", plugin.id);
    m.open("td").leaf("strong", &plugin.title).open("div");
    m.attr("class", "muted")
        .text(&plugin.name)
        .close("div")
        .close("td");
    m.leaf("td", &plugin.version);
    m.leaf("td", kind(plugin.kind));
    m.open("td");
    releases(m, p, plugin);
    m.close("td");
    m.leaf("td", &plugin.used_by.join(", "));
    let warnings: Vec<String> = plugin
        .warnings
        .iter()
        .map(|w| format!("{}: {}", w.place(), w.message))
        .collect();
    m.open("td")
        .attr("title", &warnings.join("\n"))
        .text(&warnings.len().to_string())
        .close("td");
    m.open("td");
    if p.admin {
        uninstall(m, p, plugin.id);
    }
    m.close("td").close("tr");
}

fn kind(kind: PluginKind) -> &'static str {
    match kind {
        PluginKind::Release => "release",
        PluginKind::Extension => "extension",
    }
}

fn releases(m: &mut Markup, p: &Plugins<'_>, plugin: &PluginSummary) {
    for r in &plugin.releases {
        m.open("div").text(&format!("{} ({})", r.name, r.version));
        if plugin.kind == PluginKind::Release {
            m.text(" ").open("a");
            m.attr("href", &(p.matrix)(r.id)).text("matrix").close("a");
            m.text(" · ").open("a");
            m.attr("href", &(p.tags)(r.id))
                .attr("class", "release-tags")
                .text("tags")
                .close("a");
        }
        m.close("div");
    }
    if let Some(why) = plugin.idle_reason() {
        m.open("strong")
            .attr("class", "notice notice-warn idle-plugin")
            .text(&why)
            .close("strong");
    }
}

fn uninstall(m: &mut Markup, p: &Plugins<'_>, id: i64) {
    let confirming = p.confirming == Some(id);
    m.open("button").attr("type", "button");
    m.classes(&[("uninstall", true), ("danger", confirming)])
        .flag("disabled", p.busy == Some(id));
    m.text(if confirming {
        "Confirm uninstall"
    } else {
        "Uninstall"
    })
    .close("button");
    if let Some((_, message)) = p.failure.filter(|(at, _)| *at == id) {
        m.alert(message);
    }
}

/// What the upload of a plugin package shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Upload<'a> {
    /// The package is on its way.
    pub busy: bool,
    /// The plugin just installed.
    pub installed: Option<&'a PluginSummary>,
    /// Why the package was refused, with its validation report.
    pub refused: Option<(&'a str, Option<&'a Report>)>,
}

/// The file input uploading a package, then what became of it: installed
/// (and idle if it fits no release), or refused with every problem.
pub fn upload(u: &Upload<'_>) -> Markup {
    let mut m = Markup::new();
    m.open("div")
        .attr("class", "upload")
        .open("label")
        .attr("class", "button");
    m.text("Upload a plugin package (.tar.gz or .zip)")
        .open("input")
        .attr("type", "file");
    m.attr("class", "plugin-upload")
        .attr(
            "accept",
            ".tar.gz,.tgz,.zip,application/gzip,application/zip",
        )
        .flag("disabled", u.busy)
        .close("label");
    if u.busy {
        m.open("p")
            .attr("class", "loading")
            .text("Validating and installing…")
            .close("p");
    }
    if let Some(plugin) = u.installed {
        installed(&mut m, plugin);
    }
    if let Some((message, report)) = u.refused {
        m.alert(message);
        if let Some(report) = report {
            m.append(super::report::report(report));
        }
    }
    m.close("div");
    m
}

fn installed(m: &mut Markup, plugin: &PluginSummary) {
    match plugin.idle_reason() {
        Some(why) => {
            m.open("p")
                .attr("class", "notice notice-warn idle-plugin")
                .attr("role", "status");
            m.leaf("strong", &why).close("p");
        }
        None => {
            m.open("p")
                .attr("class", "notice notice-ok")
                .attr("role", "status");
            m.text(&format!("Installed {} {}.", plugin.title, plugin.version))
                .close("p");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::PluginRelease;

    fn plugin(id: i64, name: &str, kind: PluginKind, releases: usize) -> PluginSummary {
        PluginSummary {
            id,
            name: name.to_owned(),
            title: name.to_uppercase(),
            version: "1.0.0".to_owned(),
            package_version: "5.0.0".to_owned(),
            description: String::new(),
            kind,
            releases: (0..releases)
                .map(|r| PluginRelease {
                    id: r as i64 + 1,
                    name: "Fuel".to_owned(),
                    version: "9.0".to_owned(),
                    operating_system: "ubuntu".to_owned(),
                })
                .collect(),
            used_by: vec!["lab".to_owned(), "prod".to_owned()],
            warnings: Vec::new(),
        }
    }

    fn matrix(id: i64) -> String {
        format!("/releases/{id}/matrix")
    }

    fn tags(id: i64) -> String {
        format!("/releases/{id}/tags")
    }

    /// The table of `list`, nothing asked or under way.
    fn shown(list: &[PluginSummary], admin: bool) -> Plugins<'_> {
        Plugins {
            list,
            admin,
            confirming: None,
            busy: None,
            failure: None,
            matrix: &matrix,
            tags: &tags,
        }
    }

    #[test]
    fn a_release_plugin_links_its_releases_and_an_idle_extension_says_why() {
        let list = [
            plugin(1, "openstack", PluginKind::Release, 1),
            plugin(2, "contrail", PluginKind::Extension, 0),
        ];
        let html = table(&shown(&list, false)).into_string();
        assert!(html.contains(r#"<tr data-plugin="openstack" data-key="1"><td><strong>OPENSTACK</strong><div class="muted">openstack</div></td><td>1.0.0</td><td>release</td><td><div>Fuel (9.0) <a href="/releases/1/matrix">matrix</a> · <a href="/releases/1/tags" class="release-tags">tags</a></div></td><td>lab, prod</td><td title="">0</td><td></td></tr>"#), "{html}");
        assert!(html.contains(r#"<td>extension</td><td><strong class="notice notice-warn idle-plugin">CONTRAIL 1.0.0 fits no installed release"#), "{html}");
        assert!(
            !html.contains("uninstall"),
            "a viewer is not offered it: {html}"
        );
    }

    #[test]
    fn no_plugin_is_said_in_words_not_as_an_empty_table() {
        assert_eq!(
            table(&shown(&[], true)).into_string(),
            r#"<p class="empty">No plugin is installed.</p>"#
        );
    }

    #[test]
    fn uninstalling_asks_first_waits_and_says_why_it_failed() {
        let list = [
            plugin(1, "a", PluginKind::Release, 0),
            plugin(2, "b", PluginKind::Release, 0),
        ];
        let mut p = Plugins {
            confirming: Some(1),
            busy: Some(2),
            failure: Some((2, "in use by lab")),
            ..shown(&list, true)
        };
        let html = table(&p).into_string();
        assert!(html.contains(r#"<button type="button" class="uninstall danger">Confirm uninstall</button></td></tr><tr data-plugin="b""#), "{html}");
        assert!(html.contains(r#"<button type="button" class="uninstall" disabled="">Uninstall</button><div class="notice notice-error" role="alert">in use by lab</div>"#), "{html}");
        p.confirming = None;
        assert!(!table(&p).into_string().contains("Confirm"));
    }

    #[test]
    fn an_upload_says_what_was_installed_or_why_not() {
        let busy = upload(&Upload {
            busy: true,
            ..Upload::default()
        })
        .into_string();
        assert!(busy.contains(r#"class="plugin-upload" accept=".tar.gz,.tgz,.zip,application/gzip,application/zip" disabled=""></label><p class="loading">"#), "{busy}");
        let release = plugin(1, "openstack", PluginKind::Release, 1);
        let done = upload(&Upload {
            installed: Some(&release),
            ..Upload::default()
        })
        .into_string();
        assert!(
            done.contains(
                r#"<p class="notice notice-ok" role="status">Installed OPENSTACK 1.0.0.</p>"#
            ),
            "{done}"
        );
        let idle = plugin(2, "contrail", PluginKind::Extension, 0);
        let done = upload(&Upload {
            installed: Some(&idle),
            ..Upload::default()
        })
        .into_string();
        assert!(done.contains(r#"<p class="notice notice-warn idle-plugin" role="status"><strong>CONTRAIL 1.0.0 fits"#), "{done}");
        let refused = upload(&Upload {
            refused: Some(("not a plugin", None)),
            ..Upload::default()
        })
        .into_string();
        assert!(
            refused.ends_with(
                r#"<div class="notice notice-error" role="alert">not a plugin</div></div>"#
            ),
            "{refused}"
        );
    }
}
