//! YAML, one path for all of it: text is loaded into line-keeping
//! [`Node`]s ([`load`]), typed through a serde deserializer over them
//! ([`parse`], errors ready to print as `file:line: message`), and written
//! back ([`to_string`]) in a form the loader reads as the same values.

mod de;
mod emit;
mod tree;

use std::fmt;

use serde::de::DeserializeOwned;

pub use de::{DeError, NodeDeserializer};
pub use emit::to_string;
pub use tree::{Document, DuplicateKey, Entry, Limits, Node, Value, index_path, join_path, load};

/// A file that could not be read into the expected shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    /// 1-based, when the parser knows it.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LoadError {}

impl LoadError {
    pub fn new(file: &str, message: impl Into<String>) -> LoadError {
        LoadError {
            file: file.to_owned(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

/// Parses `text` (the contents of `file`) as YAML into `T`: loaded with the
/// default [`Limits`], a key given twice is an error, and every error names
/// the line of the value it is about.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    let document = load(file, text, Limits::default())?;
    if let Some(dup) = document.duplicates.first() {
        return Err(LoadError {
            file: file.to_owned(),
            line: Some(dup.line),
            column: None,
            message: format!(
                "key '{}' is given twice (first on line {})",
                dup.key, dup.first_line
            ),
        });
    }
    from_node(file, &document.root)
}

/// Reads a loaded node into `T`, errors naming `file` and the line.
pub fn from_node<T: DeserializeOwned>(file: &str, node: &Node) -> Result<T, LoadError> {
    T::deserialize(NodeDeserializer(node)).map_err(|e| LoadError {
        file: file.to_owned(),
        line: e.line,
        column: None,
        message: e.message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::component::Component;

    #[test]
    fn errors_name_file_and_line() {
        let err = parse::<Vec<Component>>(
            "components.yaml",
            "- name: hypervisor:kvm\n- name: 'hypervisor:K'\n",
        )
        .unwrap_err();
        assert_eq!(err.file, "components.yaml");
        assert_eq!(err.line, Some(2));
        assert!(err.to_string().starts_with("components.yaml:2:"), "{err}");
        assert!(err.message.contains("hypervisor:K"), "{err}");
    }

    #[test]
    fn repeated_keys_are_errors_with_both_lines() {
        let err = parse::<serde_json::Value>("e.yaml", "a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert_eq!(err.message, "key 'a' is given twice (first on line 1)");
    }

    #[test]
    fn unknown_fields_name_the_line_of_their_key() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct File {
            mode: String,
        }
        let err = parse::<File>("e.yaml", "mode: x\n\nmodes: y\n").unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        let err = parse::<File>("e.yaml", "{}").unwrap_err();
        assert!(err.message.contains("missing field `mode`"), "{err}");
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let err = parse::<Vec<Component>>("c.yaml", "- name: [\n").unwrap_err();
        assert!(err.line.is_some(), "{err}");
    }
}
