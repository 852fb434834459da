//! Found hardware brought into an environment (SEMANTICS §13): an
//! import's plan ([`crate::node_import`]) and a declaration by hand,
//! each node's interfaces then checked as a change by hand would be, so
//! that nothing stored by an import could not have been typed.

use super::Environment;
use crate::hardware::declare;
use crate::hardware::{Found, Hardware, HardwareSource, ReadProblem};
use crate::network::NetworkConfiguration;
use crate::node_import::merge::{interfaces_after, with_known_macs};
use crate::node_import::{self, Existing, ImportPlan, Landing, Outcome};
use crate::tag::NodeTags;

impl Environment<'_> {
    /// What importing `found` into this environment (its nodes `nodes`,
    /// its networks `config`) would do at time `now`, and every problem.
    pub fn import_plan(
        &self,
        config: &NetworkConfiguration,
        found: Vec<Found>,
        nodes: &[Existing],
        now: &str,
    ) -> ImportPlan {
        let groups = self.node_groups();
        let landing = Landing {
            networks: &config.networks,
            groups,
            now,
        };
        let mut plan = node_import::plan(found, nodes, landing);
        for p in &plan.planned {
            if p.outcome == Outcome::Unchanged {
                continue;
            }
            let problems = self.interface_problems(config, &p.node);
            plan.problems
                .extend(problems.into_iter().map(|n| ReadProblem {
                    file: p.file.clone(),
                    host: Some(p.host.clone()),
                    message: format!("interfaces: {}", n.message),
                }));
        }
        plan
    }

    /// `node` (its hardware `before`, if declared before) with `hardware`
    /// declared by hand at time `now` (its interfaces following the NICs
    /// as an import's would), the hardware as stored; or every problem.
    pub fn with_declared_hardware(
        &self,
        config: &NetworkConfiguration,
        (node, before): (&NodeTags, Option<&Hardware>),
        hardware: Hardware,
        now: &str,
    ) -> Result<(NodeTags, Hardware), Vec<String>> {
        let hardware = declare::checked(hardware)?;
        let name = node.display_name();
        let declared = node.interfaces.as_ref().map(|i| with_known_macs(i, before));
        let interfaces = interfaces_after(&name, declared.as_ref(), &hardware)?;
        let next = NodeTags {
            interfaces,
            found: Some(hardware.stamp(HardwareSource::Declared, now)),
            ..node.clone()
        };
        let problems = self.interface_problems(config, &next);
        if problems.is_empty() {
            Ok((next, hardware))
        } else {
            Err(problems
                .into_iter()
                .map(|p| format!("interfaces: {}", p.message))
                .collect())
        }
    }
}
