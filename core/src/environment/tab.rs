//! The tabs of an environment's page, as data: what a problem found
//! elsewhere (an export's refusal) names as the place it is fixed, and what
//! the app's tab bar shows.

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
