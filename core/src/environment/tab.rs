//! The tabs of an environment's page, as data: what a problem found
//! elsewhere (an export's refusal) names as the place it is fixed, what
//! the app's tab bar shows, and which of the app's modules a page is split
//! into (`lazy_module`: the app's lazy routes and the server's preloads
//! read the one rule).

use serde::{Deserialize, Serialize};

/// One tab of an environment's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvTab {
    /// Its nodes, their roles and tags, and the checks before deploying.
    Nodes,
    /// The deployment preview: which tasks run where, in what order.
    Preview,
    Networks,
    Settings,
    Tags,
    Components,
    /// The hand-off to a deployer (SEMANTICS §12), and its runs
    /// (SEMANTICS §15).
    Deploy,
    /// The runs that deployed it, each task on each node (Fuel's
    /// deployment history).
    History,
    /// A node's disks: Configure Disks, opened from the Nodes tab — a
    /// place a problem names (a node short of disk space), not a tab of
    /// the bar (not in [`EnvTab::ALL`]).
    Disks,
}

impl EnvTab {
    /// Every tab, in the tab bar's order.
    pub const ALL: [EnvTab; 8] = [
        EnvTab::Nodes,
        EnvTab::Preview,
        EnvTab::Networks,
        EnvTab::Settings,
        EnvTab::Tags,
        EnvTab::Components,
        EnvTab::Deploy,
        EnvTab::History,
    ];

    /// What its link in the tab bar says (Configure Disks: the Nodes tab,
    /// where it opens).
    pub fn label(self) -> &'static str {
        match self {
            EnvTab::Nodes => "Nodes",
            EnvTab::Preview => "Deployment preview",
            EnvTab::Networks => "Networks",
            EnvTab::Settings => "Settings",
            EnvTab::Tags => "Tags",
            EnvTab::Components => "Components",
            EnvTab::Deploy => "Deploy",
            EnvTab::History => "History",
            EnvTab::Disks => "Nodes",
        }
    }
}

impl EnvTab {
    /// Its path under the environment's own (`networks`); none for the
    /// Nodes tab, the environment's own path (and Configure Disks, which
    /// opens there).
    pub fn segment(self) -> Option<&'static str> {
        match self {
            EnvTab::Nodes | EnvTab::Disks => None,
            EnvTab::Preview => Some("preview"),
            EnvTab::Networks => Some("networks"),
            EnvTab::Settings => Some("settings"),
            EnvTab::Tags => Some("tags"),
            EnvTab::Components => Some("components"),
            EnvTab::Deploy => Some("deploy"),
            EnvTab::History => Some("history"),
        }
    }

    /// The app's module its page is split into (app/src/lazy_pages.rs):
    /// the tabs an environment opens on and the light ones in
    /// `environment`, the heavy ones in `environment_more`.
    pub fn module(self) -> &'static str {
        match self {
            EnvTab::Nodes | EnvTab::Disks | EnvTab::Preview | EnvTab::Tags | EnvTab::Components => {
                "environment"
            }
            EnvTab::Networks | EnvTab::Settings | EnvTab::Deploy | EnvTab::History => {
                "environment_more"
            }
        }
    }
}

/// The app's module a first visit to `path` needs besides the main one:
/// an environment's tab's, or `catalog` for the plugins, the Heat template
/// sets and a release's tags and matrix; none for the pages of the main
/// module (the wizard, the environments, the sign-in) and unknown paths.
pub fn lazy_module(path: &str) -> Option<&'static str> {
    let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        ["environments", id] if number(id) => Some(EnvTab::Nodes.module()),
        ["environments", id, segment] if number(id) => EnvTab::ALL
            .into_iter()
            .find(|tab| tab.segment() == Some(*segment))
            .map(EnvTab::module),
        ["plugins"] | ["heat"] => Some("catalog"),
        ["releases", id, "tags" | "matrix"] if number(id) => Some("catalog"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_needs_the_module_its_page_is_split_into() {
        let check =
            |path: &str, module: Option<&str>| assert_eq!(lazy_module(path), module, "{path}");
        check("/environments/7", Some("environment"));
        check("/environments/7/", Some("environment"));
        check("/environments/7/tags", Some("environment"));
        check("/environments/7/networks", Some("environment_more"));
        check("/environments/7/history", Some("environment_more"));
        check("/releases/2/matrix", Some("catalog"));
        check("/plugins", Some("catalog"));
        for main in [
            "/",
            "/environments",
            "/environments/x/networks",
            "/environments/7/nope",
            "/api/v1/x",
        ] {
            check(main, None);
        }
    }
}
