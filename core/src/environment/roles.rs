//! An environment's and a release's roles over time (SEMANTICS §5.1): the
//! view a change at each level is judged against, which nodes hold a role,
//! and the roles of a release as its page shows them.

use std::collections::BTreeSet;

use super::{Environment, Foundation};
use crate::name::TagName;
use crate::plugin::Package;
use crate::release::Release;
use crate::role::Role;
use crate::role_layer::{
    Level, LevelView, RoleChange, RoleLayer, RoleOrigin, RoleView, effective_roles,
};
use crate::tag::{self, TagsMetadata};

impl Foundation {
    /// The release's roles, then each plugin's, as declared.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }
}

impl Environment<'_> {
    /// The roles as this environment's changes see them: what a change of
    /// its roles is judged against.
    pub fn role_level(&self) -> LevelView<'_> {
        LevelView {
            level: Level::Environment,
            roles: &self.roles,
            origins: &self.origins,
            layer: &self.spec.roles,
        }
    }

    /// What is wrong with the environment's own changes of roles (an
    /// environment file's `roles:`): an edit of a role that is not there,
    /// a role created under a name taken, a tag nothing here declares.
    pub fn role_layer_problems(&self) -> Vec<String> {
        let (below, _) = effective_roles(
            self.foundation.roles(),
            self.release_roles,
            RoleLayer::none(),
        );
        // Tags declared as tags, and those the roles below bring: not the
        // ones these very changes name.
        let known = tag::merge_metadata(
            std::iter::once(&self.release.tags_metadata)
                .chain(self.enabled_plugins().map(|p| &p.tags_metadata))
                .chain([self.release_tags, &self.spec.tags_metadata]),
        );
        let named: BTreeSet<TagName> = below
            .iter()
            .filter(|r| self.role_plugin_enabled(r))
            .flat_map(|r| r.brought_tags())
            .collect();
        let mut problems = Vec::new();
        for (name, change) in &self.spec.roles.0 {
            let exists = below.iter().any(|r| &r.id == name);
            match change {
                RoleChange::Edit(_) if !exists => {
                    problems.push(format!("roles.{name}: there is no role '{name}' to change"));
                }
                RoleChange::Own(_) if exists => problems.push(format!(
                    "roles.{name}: role '{name}' exists already; give only its tags to change them"
                )),
                _ => {}
            }
            let unknown: Vec<String> = change
                .tags()
                .iter()
                .filter(|t| !tag::known_tag(t, &known, &named))
                .map(|t| format!("'{t}'"))
                .collect();
            if !unknown.is_empty() {
                problems.push(format!(
                    "roles.{name}.tags: unknown tag {}",
                    unknown.join(", ")
                ));
            }
        }
        problems
    }

    /// The release's changes of roles this environment is built with.
    pub fn release_roles(&self) -> &RoleLayer {
        self.release_roles
    }

    /// The names of the nodes that hold role `name`, deployed or pending.
    pub fn holders(&self, name: &str) -> Vec<String> {
        self.spec
            .nodes
            .iter()
            .filter(|n| n.all_roles().any(|r| r == name))
            .map(|n| n.display_name())
            .collect()
    }

    /// The ids of the nodes that hold role `name`.
    pub fn holder_ids(&self, name: &str) -> std::collections::BTreeSet<i64> {
        self.spec
            .nodes
            .iter()
            .filter(|n| n.all_roles().any(|r| r == name))
            .map(|n| n.id)
            .collect()
    }
}

/// A release's roles: declared (by it and the plugins its environments can
/// enable) with its own changes.
#[derive(Debug, Clone)]
pub struct ReleaseRoles<'a> {
    pub roles: Vec<Role>,
    pub origins: Vec<RoleOrigin>,
    pub layer: &'a RoleLayer,
}

impl<'a> ReleaseRoles<'a> {
    pub fn new(foundation: &Foundation, layer: &'a RoleLayer) -> ReleaseRoles<'a> {
        let (roles, origins) = effective_roles(foundation.roles(), layer, RoleLayer::none());
        ReleaseRoles {
            roles,
            origins,
            layer,
        }
    }

    /// What a change of the release's roles is judged against.
    pub fn level(&self) -> LevelView<'_> {
        LevelView {
            level: Level::Release,
            roles: &self.roles,
            origins: &self.origins,
            layer: self.layer,
        }
    }

    /// Whether `tag` may be named by a role's tags on the release: known
    /// to the release (its tags, its roles', those created on it: `user`)
    /// or to a plugin its environments can enable, or an instance of one.
    pub fn knows_tag(
        &self,
        release: &Release,
        plugins: &[Package],
        user: &TagsMetadata,
        tag: &TagName,
    ) -> bool {
        let known = tag::merge_metadata(
            std::iter::once(&release.tags_metadata)
                .chain(plugins.iter().map(|p| &p.tags_metadata))
                .chain(std::iter::once(user)),
        );
        let role_named: BTreeSet<TagName> =
            self.roles.iter().flat_map(|r| r.brought_tags()).collect();
        tag::known_tag(tag, &known, &role_named)
    }

    /// Every role as `GET /releases/{id}/roles` shows it.
    pub fn views(&self) -> Vec<RoleView> {
        self.roles
            .iter()
            .zip(&self.origins)
            .map(|(role, origin)| RoleView {
                id: role.id.clone(),
                name: role.name.clone(),
                description: role.description.clone(),
                tags: role.tags.clone(),
                unavailable: None,
                plugin: None,
                tags_source: origin.tags_source,
                created: origin.created,
                nodes: 0,
            })
            .collect()
    }
}
