//! The releases the installed plugins ship.

use mosaic_core::api::ReleaseSummary;

use super::{Db, DbError, Installed};

impl Db {
    /// The installed releases, by id.
    pub async fn releases(&self) -> Result<Vec<ReleaseSummary>, DbError> {
        Ok(release_summaries(&*self.plugins().await?))
    }
}

/// The releases `installed` ships, by id.
pub fn release_summaries(installed: &Installed) -> Vec<ReleaseSummary> {
    let mut summaries: Vec<ReleaseSummary> = installed
        .iter()
        .flat_map(|p| p.releases())
        .map(|(id, release)| ReleaseSummary::installed(id, release))
        .collect();
    summaries.sort_by_key(|r| r.id);
    summaries
}
