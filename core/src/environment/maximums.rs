//! Role maximums held on every change (SEMANTICS §4, "maximums on each
//! change"): a single change, a bulk change or an import after which a
//! role's count exceeds its maximum is refused. Only roles whose count grew
//! are judged, so an environment already over a maximum (made before the
//! rule, or by a settings change that lowered the maximum) may still lose
//! holders of that role, or change anything else; it cannot gain one more.
//! Counts are kept per role ([`RoleCounts`]), so that a change is judged
//! by what it changes, not by reading every node again.

use std::collections::{BTreeMap, BTreeSet};

use super::Environment;
use crate::name::RoleName;
use crate::role::exceeded_maximum;
use crate::tag::NodeTags;

/// How many nodes hold each role, deployed or pending, nodes pending
/// deletion left out: the count role limits are about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleCounts(BTreeMap<RoleName, usize>);

impl RoleCounts {
    /// The counts of `nodes`.
    pub fn of<'a>(nodes: impl IntoIterator<Item = &'a NodeTags>) -> RoleCounts {
        let mut counts = RoleCounts::default();
        for node in nodes {
            counts.add(node);
        }
        counts
    }

    /// Counts `node` (unless it is pending deletion).
    pub fn add(&mut self, node: &NodeTags) {
        if !node.pending_deletion {
            self.add_holder(node.all_roles());
        }
    }

    /// Counts one node holding `roles` (each role once, however often it
    /// is listed).
    pub fn add_holder<'a>(&mut self, roles: impl IntoIterator<Item = &'a RoleName>) {
        for role in roles.into_iter().collect::<BTreeSet<_>>() {
            *self.0.entry(role.clone()).or_default() += 1;
        }
    }

    /// Takes `node` out of the counts (unless it is pending deletion).
    pub fn remove(&mut self, node: &NodeTags) {
        if node.pending_deletion {
            return;
        }
        for role in node.all_roles().collect::<BTreeSet<_>>() {
            if let Some(count) = self.0.get_mut(role) {
                *count = count.saturating_sub(1);
            }
        }
    }

    /// The counts after one node changed from `before` (`None`: it is new)
    /// to `after`.
    pub fn with_change(&self, before: Option<&NodeTags>, after: &NodeTags) -> RoleCounts {
        let mut counts = self.clone();
        if let Some(before) = before {
            counts.remove(before);
        }
        counts.add(after);
        counts
    }

    /// How many nodes hold `role`.
    pub fn get(&self, role: &RoleName) -> usize {
        self.0.get(role).copied().unwrap_or(0)
    }
}

/// A role a change would take past its maximum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaximumExceeded {
    pub role: RoleName,
    /// Its count after the change.
    pub count: usize,
    /// The limit's message ("Multi-node environments can not have more than
    /// 1 controller node.", or "At most N <role name> nodes are allowed.").
    pub message: String,
}

impl Environment<'_> {
    /// The counts of this environment's nodes.
    pub fn role_counts(&self) -> RoleCounts {
        RoleCounts::of(&self.spec.nodes)
    }

    /// Every role whose count grew from `before` to `after` and now exceeds
    /// the role's maximum here (its overrides evaluated against this
    /// environment), in role order; empty when the change may be made.
    pub fn exceeded_maximums(
        &self,
        before: &RoleCounts,
        after: &RoleCounts,
    ) -> Vec<MaximumExceeded> {
        self.roles()
            .iter()
            .filter_map(|role| {
                let count = after.get(&role.id);
                if count <= before.get(&role.id) {
                    return None;
                }
                let message = exceeded_maximum(role, self.models(), count)?;
                Some(MaximumExceeded {
                    role: role.id.clone(),
                    count,
                    message,
                })
            })
            .collect()
    }

    /// Whether any of `roles` declares a maximum: a change that gives a
    /// node none of those cannot exceed one, so its counts need not be
    /// read.
    pub fn any_maximum<'r>(&self, roles: impl IntoIterator<Item = &'r RoleName>) -> bool {
        roles.into_iter().any(|id| {
            self.roles()
                .iter()
                .any(|role| role.id == *id && role.limits.has_maximum())
        })
    }

    /// The messages of [`Self::exceeded_maximums`] in one line, or `None`.
    pub fn maximums_message(&self, before: &RoleCounts, after: &RoleCounts) -> Option<String> {
        let exceeded = self.exceeded_maximums(before, after);
        (!exceeded.is_empty()).then(|| joined(&exceeded))
    }
}

/// The limits' messages, one after the other.
pub fn joined(exceeded: &[MaximumExceeded]) -> String {
    exceeded
        .iter()
        .map(|e| e.message.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}
