//! Reading YAML text into typed data with errors that name the file, line
//! and column, ready to print as `file:line:col: message`.

mod tree;

use std::fmt;

use serde::de::DeserializeOwned;

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

/// Parses `text` (the contents of `file`) as YAML into `T`.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    serde_yaml::from_str(text).map_err(|e| {
        let location = e.location();
        let mut message = e.to_string();
        // serde_yaml appends " at line L column C"; the location is reported separately.
        if let Some(at) = message.rfind(" at line ") {
            message.truncate(at);
        }
        LoadError {
            file: file.to_owned(),
            line: location.as_ref().map(|l| l.line()),
            column: location.as_ref().map(|l| l.column()),
            message,
        }
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
    fn syntax_errors_name_the_line() {
        let err = parse::<Vec<Component>>("c.yaml", "- name: [\n").unwrap_err();
        assert!(err.line.is_some(), "{err}");
    }
}
