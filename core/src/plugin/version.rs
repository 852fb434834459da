//! A plugin's version (`N.N` or `N.N.N`, SEMANTICS §7.1), ordered by its
//! numbers: the one rule for "the newest version wins".

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A plugin version; `1.10` is newer than `1.9`. Missing parts count as
/// zero; `1.0` and `1.0.0` are told apart by their text (the text is kept
/// as written).
#[derive(Debug, Clone, Eq)]
pub struct Version {
    text: String,
    parts: [u64; 3],
}

impl Version {
    pub fn new(text: &str) -> Result<Version, String> {
        let parts: Vec<&str> = text.split('.').collect();
        let numbers: Option<Vec<u64>> = parts
            .iter()
            .map(|p| {
                (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| p.parse().ok())
                    .flatten()
            })
            .collect();
        match numbers {
            Some(n) if n.len() == 2 || n.len() == 3 => Ok(Version {
                text: text.to_owned(),
                parts: [n[0], n[1], n.get(2).copied().unwrap_or(0)],
            }),
            _ => Err(format!("version '{text}' must be N.N or N.N.N")),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl PartialEq for Version {
    fn eq(&self, other: &Version) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Version) -> Ordering {
        self.parts
            .cmp(&other.parts)
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Version::new(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_by_their_numbers() {
        let v = |t: &str| Version::new(t).unwrap();
        assert!(v("1.10") > v("1.9"));
        assert!(v("2.0.1") > v("2.0"));
        assert!(v("10.0.0") > v("9.9.9"));
        assert!(Version::new("1.0-rc1").is_err());
        assert!(Version::new("1").is_err());
        assert!(Version::new("1..0").is_err());
        assert_eq!(v("1.0.0").to_string(), "1.0.0");
    }
}
