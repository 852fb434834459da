//! What a run found on its hosts (SEMANTICS §13, §15): the facts Ansible
//! gathered — kolla-ansible gathers them at the start of every command,
//! and ansible-runner keeps them in its jsonfile fact cache
//! (`<step>/artifacts/runner/fact_cache`, a file per host) — imported as
//! the hardware of the nodes the run deploys once each step ends. As any
//! import: matched to the nodes, all or nothing; a host that is no node
//! is left alone. What refuses it is the run's server log's, not the
//! run's: hardware is what was found, the deployment goes on.

use mosaic_core::api::ImportReport;
use std::path::Path;

use crate::db::{Db, DbError};
use crate::environment::Stored;
use crate::facts;
use crate::timestamp;

/// How many times an import whose environment moved meanwhile is tried.
const ATTEMPTS: usize = 3;

/// Imports the facts a step of environment `cluster_id`'s run gathered
/// (its directory `step_dir`); none when it gathered none.
pub(super) async fn import_found(
    db: &Db,
    cluster_id: i64,
    step_dir: &Path,
) -> anyhow::Result<Option<ImportReport>> {
    let cache = step_dir.join("artifacts/runner/fact_cache");
    if !tokio::fs::try_exists(&cache).await.unwrap_or(false) {
        return Ok(None);
    }
    let gathered = tokio::task::spawn_blocking(move || facts::from_dir(&cache))
        .await?
        .map_err(anyhow::Error::msg)?;
    if gathered.found.is_empty() && gathered.problems.is_empty() {
        return Ok(None);
    }
    let gathered = &gathered;
    let report = crate::retry::attempts(ATTEMPTS, || async move {
        let Some(stored) = Stored::head(db, cluster_id).await? else {
            // The environment went: nothing to import into, and no report.
            return Ok(Some(None));
        };
        let env = stored.environment()?;
        let (config, _) = env.network_configuration().map_err(anyhow::Error::msg)?;
        let addressing = env.addressing(&config);
        let now = timestamp::rfc3339(timestamp::now());
        let found = gathered.found.clone();
        let checked = (stored.row.settings_version, &addressing);
        let planned = db
            .import_hardware(cluster_id, checked, true, |existing| {
                let mut plan = env.import_plan(&config, found, existing, &now);
                plan.problems.extend(gathered.problems.iter().cloned());
                let mut plan = plan.known_only();
                env.lay_out_import(&mut plan);
                plan
            })
            .await;
        match planned {
            Err(DbError::Moved(_)) => Ok(None),
            Err(e) => Err(anyhow::Error::from(e)),
            Ok(plan) => Ok(Some(Some(ImportReport::of(&plan)))),
        }
    })
    .await?;
    report.ok_or_else(|| {
        anyhow::anyhow!("the environment kept changing while the facts were imported")
    })
}
