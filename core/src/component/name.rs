//! Component names (`network:neutron:core:ml2`) and the patterns that
//! relations use to point at them (`hypervisor:libvirt:*`).
//!
//! Both are validated newtypes: a value that exists is well formed, and
//! deserialization goes through the same constructor (SEMANTICS §2.1).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The four kinds of component, the first segment of every name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ComponentType {
    Hypervisor,
    Network,
    Storage,
    AdditionalService,
}

impl ComponentType {
    pub const ALL: [ComponentType; 4] = [
        ComponentType::Hypervisor,
        ComponentType::Network,
        ComponentType::Storage,
        ComponentType::AdditionalService,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ComponentType::Hypervisor => "hypervisor",
            ComponentType::Network => "network",
            ComponentType::Storage => "storage",
            ComponentType::AdditionalService => "additional_service",
        }
    }

    pub fn parse(s: &str) -> Option<ComponentType> {
        ComponentType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl fmt::Display for ComponentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a string is not a valid name or pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid component {what} '{input}': {reason}")]
pub struct NameError {
    /// "name" or "pattern".
    pub what: &'static str,
    pub input: String,
    /// 1-based index of the offending segment, when one segment is at fault.
    pub segment: Option<usize>,
    pub reason: String,
}

fn check(input: &str, what: &'static str, wildcards: bool) -> Result<ComponentType, NameError> {
    let err = |segment: Option<usize>, reason: String| NameError {
        what,
        input: input.to_owned(),
        segment,
        reason,
    };
    let mut segments = input.split(':');
    let first = segments.next().unwrap_or_default();
    let kind = ComponentType::parse(first).ok_or_else(|| {
        let reason = if first == "*" {
            "the type segment cannot be a wildcard".to_owned()
        } else {
            format!(
                "segment 1 ('{first}') must be one of hypervisor, network, storage, additional_service"
            )
        };
        err(Some(1), reason)
    })?;
    let mut count = 1;
    for (i, seg) in segments.enumerate() {
        let position = i + 2;
        count += 1;
        if wildcards && seg == "*" {
            continue;
        }
        if seg.is_empty() {
            return Err(err(Some(position), format!("segment {position} is empty")));
        }
        if let Some(bad) = seg
            .chars()
            .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_' || *c == '-'))
        {
            let allowed = if wildcards {
                "[0-9a-z_-] or a lone '*'"
            } else {
                "[0-9a-z_-]"
            };
            return Err(err(
                Some(position),
                format!("segment {position} ('{seg}') contains '{bad}'; segments use {allowed}"),
            ));
        }
    }
    if count < 2 {
        return Err(err(
            None,
            format!("expected '{first}:<segment>', at least two segments"),
        ));
    }
    Ok(kind)
}

/// A validated component name: `type:segment(:segment)*`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ComponentName {
    text: String,
    kind: ComponentType,
}

impl ComponentName {
    pub fn new(text: impl Into<String>) -> Result<Self, NameError> {
        let text = text.into();
        let kind = check(&text, "name", false)?;
        Ok(ComponentName { text, kind })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn kind(&self) -> ComponentType {
        self.kind
    }

    /// The segments after the type: `network:neutron:ml2:vlan` → `[neutron, ml2, vlan]`.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.text.split(':').skip(1)
    }

    /// Whether `word` is one of the segments after the type, other than the last.
    pub fn has_inner_segment(&self, word: &str) -> bool {
        let segments: Vec<&str> = self.segments().collect();
        segments[..segments.len() - 1].contains(&word)
    }

    /// The last segment.
    pub fn last_segment(&self) -> &str {
        self.text.rsplit(':').next().unwrap_or_default()
    }
}

impl fmt::Display for ComponentName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for ComponentName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for ComponentName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ComponentName::new(text).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
crate::schema::schema!(
    ComponentName,
    crate::schema::pattern(
        "^(hypervisor|network|storage|additional_service)(:[0-9a-z_-]+)+$",
        "A component name: its type, then segments of [0-9a-z_-], separated by ':'"
    )
);

/// A validated pattern: a name whose segments after the type may be `*`.
///
/// `*` matches exactly one segment, except as the last segment, where it
/// matches one or more remaining segments. There is no prefix matching.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    text: String,
    kind: ComponentType,
}

impl Pattern {
    pub fn new(text: impl Into<String>) -> Result<Self, NameError> {
        let text = text.into();
        let kind = check(&text, "pattern", true)?;
        Ok(Pattern { text, kind })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The type every matching name has.
    pub fn kind(&self) -> ComponentType {
        self.kind
    }

    pub fn matches(&self, name: &ComponentName) -> bool {
        if self.kind != name.kind {
            return false;
        }
        let mut pattern = self.text.split(':').skip(1).peekable();
        let mut segments = name.segments();
        while let Some(p) = pattern.next() {
            let is_last = pattern.peek().is_none();
            match segments.next() {
                // A trailing `*` takes this segment and any that follow.
                Some(_) if is_last && p == "*" => return true,
                Some(s) if p == "*" || p == s => {}
                _ => return false,
            }
        }
        segments.next().is_none()
    }

    /// Whether the pattern has a wildcard segment.
    pub fn has_wildcard(&self) -> bool {
        self.text.split(':').any(|s| s == "*")
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Pattern {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Pattern::new(text).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
crate::schema::schema!(
    Pattern,
    crate::schema::pattern(
        "^(hypervisor|network|storage|additional_service)(:([0-9a-z_-]+|\\*))+$",
        "A component pattern: a component name whose segments after the type may be '*'"
    )
);

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> ComponentName {
        ComponentName::new(s).unwrap()
    }

    fn check_match(pattern: &str, candidate: &str, expect: bool) {
        let p = Pattern::new(pattern).unwrap();
        assert_eq!(
            p.matches(&name(candidate)),
            expect,
            "{pattern} ~ {candidate}"
        );
    }

    #[test]
    fn patterns_match_as_semantics_says() {
        check_match("hypervisor:*", "hypervisor:vmware", true);
        check_match("hypervisor:*", "hypervisor:libvirt:kvm", true);
        check_match("hypervisor:libvirt:*", "hypervisor:libvirt:kvm", true);
        check_match("hypervisor:libvirt:*", "hypervisor:xen", false);
        check_match("hypervisor:libvirt:*", "hypervisor:libvirt", false);
        check_match("network:*:ml2", "network:neutron:ml2", true);
        check_match("network:*:ml2", "network:neutron:ml2:vlan", false);
        check_match("network:*:ml2", "network:ml2", false);
        check_match("hypervisor:kvm", "hypervisor:kvm2", false);
        check_match("hypervisor:kvm", "hypervisor:kvm", true);
        check_match("network:neutron:*", "hypervisor:neutron:x", false);
    }

    #[test]
    fn invalid_names_say_where() {
        let e = ComponentName::new("hypervisor:Xen").unwrap_err();
        assert_eq!(e.segment, Some(2));
        assert!(e.to_string().contains("'X'"), "{e}");
        let e = ComponentName::new("compute:kvm").unwrap_err();
        assert_eq!(e.segment, Some(1));
        assert!(ComponentName::new("hypervisor").is_err());
        assert!(ComponentName::new("hypervisor::kvm").is_err());
        assert!(ComponentName::new("hypervisor:*").is_err());
    }

    #[test]
    fn invalid_patterns_are_rejected() {
        assert!(
            Pattern::new("*:foo")
                .unwrap_err()
                .reason
                .contains("wildcard")
        );
        assert!(Pattern::new("hypervisor:lib*").is_err());
        assert!(Pattern::new("hypervisor:*:kvm").is_ok());
    }

    #[test]
    fn segments_classify_network_names() {
        assert!(name("network:neutron:ml2:vlan").has_inner_segment("ml2"));
        assert!(!name("network:neutron:core:ml2").has_inner_segment("ml2"));
        assert_eq!(name("network:neutron:core:ml2").last_segment(), "ml2");
    }
}
