//! The tabs of an environment's page, as data: what a problem found
//! elsewhere (an export's refusal) names as the place it is fixed, and what
//! the app's tab bar shows.

use serde::{Deserialize, Serialize};

/// One tab of an environment's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EnvTab {
    /// Its nodes, their roles and tags, and the deployment preview.
    Nodes,
    Networks,
    Settings,
    Tags,
    Components,
    /// The hand-off to a deployer (SEMANTICS §12).
    Deploy,
}

impl EnvTab {
    /// Every tab, in the tab bar's order.
    pub const ALL: [EnvTab; 6] = [
        EnvTab::Nodes,
        EnvTab::Networks,
        EnvTab::Settings,
        EnvTab::Tags,
        EnvTab::Components,
        EnvTab::Deploy,
    ];

    /// What its link in the tab bar says.
    pub fn label(self) -> &'static str {
        match self {
            EnvTab::Nodes => "Nodes and deployment",
            EnvTab::Networks => "Networks",
            EnvTab::Settings => "Settings",
            EnvTab::Tags => "Tags",
            EnvTab::Components => "Components",
            EnvTab::Deploy => "Deploy",
        }
    }
}
