//! What an upgrade does with the changes made on a release (SEMANTICS
//! §7.6, issue 43): the tags created on its release record and the
//! changes of its roles.
//!
//! **Decision: a release-level change follows the record, and an upgrade
//! carries it.** Changes made on a release are the release record's, as
//! its other environments see them; moving an environment to the next
//! version's record carries them onto that record, each where it still
//! fits: a role change whose role the new version still has (a role
//! created on the release whose name the new version does not declare),
//! whose tags the new version still knows; a created tag whose name the
//! new version does not declare. A change the new record already has its
//! own (different) version of is not carried: the new record's stays. What
//! is not carried is listed with why (the preview always shows the whole
//! section), and stays on the old record for the environments still on
//! it. A plugin upgrade keeps the record: its changes are "carried" as
//! they are, and those the new plugin version no longer has a role or tag
//! for are listed as not carried.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::Foundation;
use crate::name::TagName;
use crate::plugin::Package;
use crate::release::Release;
use crate::role_layer::{RoleChange, RoleLayer};
use crate::tag::{self, TagsMetadata};
use crate::text::{plural, quoted};

/// What an upgrade does with the changes made on the release record
/// (SEMANTICS §7.6): those the environment keeps — carried onto the new
/// record, for a release upgrade — and those it does not, with why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReleaseCarry {
    pub carried: Vec<CarriedChange>,
    pub not_carried: Vec<NotCarried>,
}

/// What a change made on a release is of: a role, or a tag created there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Role,
    Tag,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Role => "role",
            ChangeKind::Tag => "tag",
        }
    }
}

/// A change made on the release that the upgrade keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarriedChange {
    pub kind: ChangeKind,
    pub name: String,
}

/// A change made on the release that the upgrade does not keep, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotCarried {
    pub kind: ChangeKind,
    pub name: String,
    pub reason: NotCarriedReason,
    /// For `tags_gone`: the tags the new version does not know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<TagName>,
}

/// Why a change made on the release is not carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum NotCarriedReason {
    /// The new version has no role of that name to change.
    RoleGone,
    /// The new version declares a role or tag of that name itself.
    Declared,
    /// The role's tags name tags the new version does not know.
    TagsGone,
    /// The new release record has its own, different change of it.
    Changed,
}

impl NotCarried {
    /// Why it is not carried, in words.
    pub fn why(&self) -> String {
        let (kind, name) = (self.kind.as_str(), &self.name);
        match self.reason {
            NotCarriedReason::RoleGone => format!("the new version has no role '{name}'"),
            NotCarriedReason::Declared => {
                format!("the new version declares a {kind} '{name}' itself")
            }
            NotCarriedReason::TagsGone => format!(
                "the new version does not know the tag{} {}",
                plural(self.tags.len()),
                quoted(
                    &self
                        .tags
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                )
            ),
            NotCarriedReason::Changed => "the new release has its own change of it".to_owned(),
        }
    }
}

impl std::fmt::Display for NotCarried {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = &self.name;
        match self.kind {
            ChangeKind::Role => write!(f, "the change of role '{name}'")?,
            ChangeKind::Tag => write!(f, "the tag '{name}' created on the release")?,
        }
        write!(f, " is not carried: {}", self.why())
    }
}

/// A release record's own changes: the tags created on it and its changes
/// of roles.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReleaseChanges {
    pub tags: TagsMetadata,
    pub roles: RoleLayer,
}

/// The new record's changes once those of the old are carried, and what
/// was carried and what not.
#[derive(Debug, Clone, PartialEq)]
pub struct Carried {
    pub changes: ReleaseChanges,
    pub report: ReleaseCarry,
}

/// What an environment is built on after an upgrade: the new release
/// record, the plugins it can enable, and what they declare.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub release: &'a Release,
    pub plugins: &'a [Package],
    pub foundation: &'a Foundation,
}

impl Target<'_> {
    /// Whether the release or one of the plugins declares tag `name` (in
    /// its tags' metadata, or as a role's tag).
    fn declares_tag(&self, name: &TagName, role_named: &BTreeSet<TagName>) -> bool {
        self.release.tags_metadata.contains_key(name)
            || self
                .plugins
                .iter()
                .any(|p| p.tags_metadata.contains_key(name))
            || role_named.contains(name)
    }
}

/// Carries `from` (the old record's changes) onto `to` (the new record's
/// own; the same for a plugin upgrade) as `target` sees them.
pub fn carry(from: &ReleaseChanges, to: &ReleaseChanges, target: Target<'_>) -> Carried {
    let role_named: BTreeSet<TagName> = target
        .foundation
        .roles()
        .iter()
        .flat_map(|r| r.brought_tags())
        .collect();
    let mut report = ReleaseCarry::default();
    let mut tags = to.tags.clone();
    for (name, meta) in &from.tags {
        let reason = if target.declares_tag(name, &role_named) {
            Some(NotCarriedReason::Declared)
        } else {
            match to.tags.get(name) {
                Some(theirs) if theirs != meta => Some(NotCarriedReason::Changed),
                _ => None,
            }
        };
        report.note(ChangeKind::Tag, name.as_str(), reason, Vec::new());
        if reason.is_none() {
            tags.insert(name.clone(), *meta);
        }
    }
    let known = tag::merge_metadata(
        std::iter::once(&target.release.tags_metadata)
            .chain(target.plugins.iter().map(|p| &p.tags_metadata))
            .chain([&tags]),
    );
    let mut roles = to.roles.clone();
    for (name, change) in &from.roles.0 {
        let declared = target.foundation.roles().iter().any(|r| &r.id == name);
        let unknown: Vec<TagName> = change
            .tags()
            .iter()
            .filter(|t| !tag::known_tag(t, &known, &role_named))
            .cloned()
            .collect();
        // The new record's own change of the role: a role created there
        // exists for an edit, and a different change of its own stays.
        let theirs = to.roles.0.get(name);
        let created_there = matches!(theirs, Some(RoleChange::Own(_)));
        let reason = match change {
            RoleChange::Edit(_) if !declared && !created_there => Some(NotCarriedReason::RoleGone),
            RoleChange::Own(_) if declared => Some(NotCarriedReason::Declared),
            _ if !unknown.is_empty() => Some(NotCarriedReason::TagsGone),
            _ if theirs.is_some_and(|t| t != change) => Some(NotCarriedReason::Changed),
            _ => None,
        };
        let unknown = if reason == Some(NotCarriedReason::TagsGone) {
            unknown
        } else {
            Vec::new()
        };
        report.note(ChangeKind::Role, name.as_str(), reason, unknown);
        if reason.is_none() {
            roles.0.insert(name.clone(), change.clone());
        }
    }
    Carried {
        changes: ReleaseChanges { tags, roles },
        report,
    }
}

impl ReleaseCarry {
    /// One change: carried, or not for `reason`.
    fn note(
        &mut self,
        kind: ChangeKind,
        name: &str,
        reason: Option<NotCarriedReason>,
        tags: Vec<TagName>,
    ) {
        let name = name.to_owned();
        match reason {
            None => self.carried.push(CarriedChange { kind, name }),
            Some(reason) => self.not_carried.push(NotCarried {
                kind,
                name,
                reason,
                tags,
            }),
        }
    }
}
