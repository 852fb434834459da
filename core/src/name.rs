//! The names and small vocabularies of an environment, as validated types:
//! [`RoleName`], [`TagName`], [`TaskId`], [`PluginName`], [`GraphType`],
//! [`NetworkName`], and the enums [`NodeStatus`] and [`Mode`]. A value that
//! exists is well formed; every `Deserialize` goes through the same
//! constructor, so stored data, files and requests are checked by one rule
//! each.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A string that is not a valid name of its kind: which kind, what, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{input}' is not a valid {what}: {reason}")]
pub struct InvalidName {
    pub what: &'static str,
    pub input: String,
    pub reason: &'static str,
}

/// Defines a string newtype whose constructor checks `$valid`.
macro_rules! name_type {
    ($(#[$doc:meta])* $name:ident, $what:literal, $reason:literal, $pattern:literal, $valid:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(String);

        impl $name {
            pub fn new(input: impl Into<String>) -> Result<$name, InvalidName> {
                let input = input.into();
                let valid: fn(&str) -> bool = $valid;
                if valid(&input) {
                    Ok($name(input))
                } else {
                    Err(InvalidName { what: $what, input, reason: $reason })
                }
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $name::new(String::deserialize(d)?).map_err(serde::de::Error::custom)
            }
        }

        // `$pattern` is the rule `$valid` checks, as a JSON Schema pattern.
        #[cfg(feature = "openapi")]
        crate::schema::schema!($name, crate::schema::pattern($pattern, concat!("A ", $what, ": ", $reason)));
    };
}

fn word(s: &str, extra: fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || extra(b))
}

fn lower_word(s: &str) -> bool {
    word(s, |b| b.is_ascii_lowercase() || b == b'_' || b == b'-')
}

fn tag_word(s: &str) -> bool {
    word(s, |b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
}

name_type!(
    /// A node role (`controller`, `ceph-osd`): lowercase letters, digits,
    /// `_` and `-` (SEMANTICS §4).
    RoleName,
    "role name",
    "use lowercase letters, digits, '_' and '-'",
    "^[a-z0-9_-]+$",
    lower_word
);

name_type!(
    /// A plugin's `name` (`^[a-z0-9_-]+$`, SEMANTICS §7.1); also the name of
    /// its settings group.
    PluginName,
    "plugin name",
    "use lowercase letters, digits, '_' and '-'",
    "^[a-z0-9_-]+$",
    lower_word
);

name_type!(
    /// A tag (`mysql`, `primary-controller`) or an instance tag `name:N`
    /// (`mysql:1`, SEMANTICS §5).
    TagName,
    "tag name",
    "use letters, digits, '_' and '-', optionally followed by ':N' for an instance",
    "^[A-Za-z0-9_-]+(:[0-9]+)?$",
    |s| match s.split_once(':') {
        Some((name, n)) => tag_word(name) && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        None => tag_word(s),
    }
);

name_type!(
    /// A network (`management`, `fuelweb_admin`): as a release declares
    /// it, and as an environment's networks, a node's addresses and a
    /// service's network role name it (SEMANTICS §11.1). 1 to 50 letters,
    /// digits, `_`, `-` and `.`, as Fuel's network group names.
    NetworkName,
    "network name",
    "use 1 to 50 letters, digits, '_', '-' or '.'",
    "^[A-Za-z0-9_.-]{1,50}$",
    |s| s.len() <= 50 && word(s, |b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'-' | b'.'))
);

name_type!(
    /// A graph type (`default`, `provisioning`, `deletion`, a plugin's own):
    /// lowercase letters, digits, `_` and `-` (SEMANTICS §6.2).
    GraphType,
    "graph type",
    "use lowercase letters, digits, '_' and '-'",
    "^[a-z0-9_-]+$",
    lower_word
);

impl NetworkName {
    /// The admin (PXE) network: one per environment, in no node group.
    pub const ADMIN: &str = "fuelweb_admin";

    /// The [`Self::ADMIN`] network.
    pub fn admin() -> NetworkName {
        NetworkName(NetworkName::ADMIN.to_owned())
    }
}

impl GraphType {
    /// `default`: the deployment graph, the only type plugins' and
    /// environments' `deployment_tasks` belong to.
    pub const DEPLOYMENT: &str = "default";

    /// The [`Self::DEPLOYMENT`] type.
    pub fn deployment() -> GraphType {
        GraphType(GraphType::DEPLOYMENT.to_owned())
    }

    pub fn is_deployment(&self) -> bool {
        self.0 == GraphType::DEPLOYMENT
    }
}

/// A deployment task's id (`openstack-controller`, `upload_nodes_info`):
/// printable, without spaces, at most 256 bytes. Shared, not copied: plans
/// name a task once per node, and a clone is a reference count.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaskId(std::sync::Arc<str>);

impl TaskId {
    pub fn new(input: impl Into<String>) -> Result<TaskId, InvalidName> {
        let input = input.into();
        if !input.is_empty() && input.len() <= 256 && input.bytes().all(|b| b.is_ascii_graphic()) {
            Ok(TaskId(input.into()))
        } else {
            Err(InvalidName {
                what: "task id",
                input,
                reason: "use at most 256 letters, digits and punctuation, without spaces",
            })
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Borrow<str> for TaskId {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for TaskId {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for TaskId {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl Serialize for TaskId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for TaskId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        TaskId::new(String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
crate::schema::schema!(
    TaskId,
    crate::schema::pattern(
        "^[!-~]{1,256}$",
        "A task id: at most 256 letters, digits and punctuation, without spaces"
    )
);

impl TagName {
    /// `mysql` for the instance tag `mysql:2`.
    pub fn instance_of(&self) -> Option<&str> {
        self.0.split_once(':').map(|(name, _)| name)
    }

    /// The instance number of `mysql:2`.
    pub fn instance_number(&self) -> Option<u64> {
        self.0.split_once(':').and_then(|(_, n)| n.parse().ok())
    }

    /// The tag a role named `role` brings by its own name.
    pub fn of_role(role: &RoleName) -> TagName {
        // Role names are a subset of tag names.
        TagName(role.0.clone())
    }

    /// `primary-<tag>`, the tag the primary node of `self` carries.
    pub fn primary(&self) -> TagName {
        TagName(format!("primary-{}", self.0))
    }
}

/// Defines a closed vocabulary of snake_case strings as an enum.
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident, $what:literal, default $default:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn parse(input: &str) -> Result<$name, InvalidValue> {
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == input)
                    .ok_or_else(|| InvalidValue {
                        what: $what,
                        input: input.to_owned(),
                        allowed: $name::ALL.iter().map(|v| v.as_str()).collect(),
                    })
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::$default
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $name::parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
            }
        }

        #[cfg(feature = "openapi")]
        crate::schema::schema!(
            $name,
            crate::schema::one_of_strings($name::ALL.iter().map(|v| v.as_str()), concat!("A ", $what))
        );
    };
}

/// A value outside a closed vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}: '{input}' is not one of {}", allowed.join(", "))]
pub struct InvalidValue {
    pub what: &'static str,
    pub input: String,
    pub allowed: Vec<&'static str>,
}

vocabulary!(
    /// Where a node is in its life (Fuel's statuses that matter here).
    NodeStatus, "status", default Discover {
        Discover => "discover",
        Provisioned => "provisioned",
        Deploying => "deploying",
        Ready => "ready",
        Error => "error",
    }
);

impl EnvironmentStatus {
    /// How an environment's page says it.
    pub fn label(self) -> &'static str {
        match self {
            EnvironmentStatus::New => "New",
            EnvironmentStatus::Deployment => "Deploying",
            EnvironmentStatus::Operational => "Operational",
            EnvironmentStatus::PartiallyDeployed => "Partially deployed",
            EnvironmentStatus::Error => "Error",
        }
    }
}

impl NodeStatus {
    /// The status as an operator may set it: any but `deploying`, which
    /// only a run gives (SEMANTICS §15).
    pub fn by_hand(self) -> Result<NodeStatus, String> {
        if self == NodeStatus::Deploying {
            Err("status 'deploying' is given by a deployment run, not by hand".to_owned())
        } else {
            Ok(self)
        }
    }
}

vocabulary!(
    /// Why a node is in `error` (Fuel's `error_type`): `deploy`, a run
    /// failed on it, was canceled or lost (SEMANTICS §15).
    ErrorType, "error type", default Deploy {
        Deploy => "deploy",
    }
);

vocabulary!(
    /// An environment's status (Fuel's cluster statuses, SEMANTICS §15):
    /// `new` until a run deploys it, `deployment` while one does, then how
    /// the last one left its nodes.
    EnvironmentStatus, "environment status", default New {
        New => "new",
        Deployment => "deployment",
        Operational => "operational",
        PartiallyDeployed => "partially_deployed",
        Error => "error",
    }
);

vocabulary!(
    /// How controllers are deployed: highly available (primary tags exist)
    /// or a single controller.
    Mode, "mode", default HaCompact {
        HaCompact => "ha_compact",
        Multinode => "multinode",
    }
);

impl Mode {
    /// Whether tags with `has_primary` get a primary node.
    pub fn is_ha(self) -> bool {
        self == Mode::HaCompact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_by_their_rule() {
        for (input, ok) in [
            ("controller", true),
            ("ceph-osd", true),
            ("Controller", false),
            ("", false),
            ("a b", false),
        ] {
            assert_eq!(RoleName::new(input).is_ok(), ok, "{input}");
        }
        for (input, ok) in [
            ("mysql", true),
            ("mysql:1", true),
            ("Primary-DB_2", true),
            ("mysql:", false),
            (":1", false),
            ("mysql:x", false),
            ("a[]]", false),
        ] {
            assert_eq!(TagName::new(input).is_ok(), ok, "{input}");
        }
        for (input, ok) in [
            ("fuelweb_admin", true),
            ("Storage-2.a", true),
            (&"n".repeat(50), true),
            (&"n".repeat(51), false),
            ("", false),
            ("two words", false),
        ] {
            assert_eq!(NetworkName::new(input).is_ok(), ok, "{input}");
        }
        assert_eq!(NetworkName::admin(), NetworkName::ADMIN);
        assert!(TaskId::new("deploy_start").is_ok());
        assert!(TaskId::new("two words").is_err());
        let err = PluginName::new("My Plugin").unwrap_err();
        assert_eq!(
            err.to_string(),
            "'My Plugin' is not a valid plugin name: use lowercase letters, digits, '_' and '-'"
        );
    }

    #[test]
    fn instance_tags_know_their_name_and_number() {
        let tag = TagName::new("mysql:12").unwrap();
        assert_eq!(tag.instance_of(), Some("mysql"));
        assert_eq!(tag.instance_number(), Some(12));
        assert_eq!(TagName::new("mysql").unwrap().instance_of(), None);
    }

    #[test]
    fn vocabularies_name_what_they_allow() {
        assert_eq!(Mode::parse("multinode"), Ok(Mode::Multinode));
        assert_eq!(
            NodeStatus::parse("gone").unwrap_err().to_string(),
            "status: 'gone' is not one of discover, provisioned, deploying, ready, error"
        );
        let parsed: NodeStatus = serde_json::from_str("\"ready\"").unwrap();
        assert_eq!(parsed, NodeStatus::Ready);
        assert!(serde_json::from_str::<Mode>("\"ha\"").is_err());
    }
}
