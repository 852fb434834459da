//! The validation report: every problem of a package, each with severity,
//! file, YAML path and line (SEMANTICS §7.4). Problems are data; `Display`
//! writes the `file:line: path: message` lines and the summary.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::component::Severity;

/// One problem of a package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Diagnostic {
    pub severity: Severity,
    /// Relative to the package root.
    pub file: String,
    /// 1-based, when known.
    pub line: Option<usize>,
    /// The YAML path inside the file (`controller.limits.min`), when the
    /// problem is about one value.
    pub path: Option<String>,
    pub message: String,
}

impl Diagnostic {
    /// Where the problem is: `file:line (path)`, as much as is known.
    pub fn place(&self) -> String {
        let mut place = self.file.clone();
        if let Some(line) = self.line {
            place.push(':');
            place.push_str(&line.to_string());
        }
        if let Some(path) = self.path.as_deref().filter(|p| !p.is_empty()) {
            place.push_str(" (");
            place.push_str(path);
            place.push(')');
        }
        place
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, ": {severity}: ")?;
        if let Some(path) = self.path.as_deref().filter(|p| !p.is_empty()) {
            write!(f, "{path}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Who the package is, when its `metadata.yaml` could be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PluginId {
    pub name: String,
    pub version: String,
    pub package_version: String,
}

/// One `releases:` record, as the report lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReleaseId {
    pub name: String,
    pub version: String,
    pub operating_system: String,
    pub is_release: bool,
}

/// What `mosaic plugin validate` prints and installs answer with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Report {
    pub plugin: Option<PluginId>,
    pub releases: Vec<ReleaseId>,
    pub diagnostics: Vec<Diagnostic>,
    pub errors: usize,
    pub warnings: usize,
}

impl Report {
    pub fn new(
        plugin: Option<PluginId>,
        releases: Vec<ReleaseId>,
        diagnostics: Vec<Diagnostic>,
    ) -> Report {
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        Report {
            plugin,
            releases,
            warnings: diagnostics.len() - errors,
            errors,
            diagnostics,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// "N errors, M warnings".
    pub fn summary(&self) -> String {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", crate::text::plural(n));
        format!(
            "{}, {}",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(plugin) = &self.plugin {
            writeln!(
                f,
                "plugin {} {} (package version {})",
                plugin.name, plugin.version, plugin.package_version
            )?;
        }
        for release in &self.releases {
            if release.is_release {
                writeln!(
                    f,
                    "  release {} {} ({})",
                    release.name, release.version, release.operating_system
                )?;
            } else {
                writeln!(
                    f,
                    "  extends {} {}",
                    release.operating_system, release.version
                )?;
            }
        }
        for diagnostic in &self.diagnostics {
            writeln!(f, "{diagnostic}")?;
        }
        write!(f, "{}", self.summary())
    }
}

/// Collects the diagnostics of one file.
pub(crate) struct Sink<'a> {
    pub file: String,
    pub out: &'a mut Vec<Diagnostic>,
}

impl Sink<'_> {
    pub fn push(
        &mut self,
        severity: Severity,
        line: Option<usize>,
        path: &str,
        message: impl Into<String>,
    ) {
        self.out.push(Diagnostic {
            severity,
            file: self.file.clone(),
            line,
            path: (!path.is_empty()).then(|| path.to_owned()),
            message: message.into(),
        });
    }

    pub fn error(&mut self, line: usize, path: &str, message: impl Into<String>) {
        self.push(Severity::Error, Some(line), path, message);
    }

    pub fn warning(&mut self, line: usize, path: &str, message: impl Into<String>) {
        self.push(Severity::Warning, Some(line), path, message);
    }

    /// Whether this file has an error so far.
    pub fn has_errors(&self) -> bool {
        self.out
            .iter()
            .any(|d| d.file == self.file && d.severity == Severity::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(line: Option<usize>, path: Option<&str>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: "node_roles.yaml".into(),
            line,
            path: path.map(str::to_owned),
            message: "limits.min: expected a number".into(),
        }
    }

    #[test]
    fn places_name_file_line_and_path() {
        let d = diagnostic(Some(5), Some("mistaken.limits"));
        assert_eq!(d.place(), "node_roles.yaml:5 (mistaken.limits)");
        assert_eq!(diagnostic(None, None).place(), "node_roles.yaml");
        assert_eq!(diagnostic(None, Some("")).place(), "node_roles.yaml");
    }

    #[test]
    fn the_summary_counts_errors_and_warnings() {
        let warning = Diagnostic {
            severity: Severity::Warning,
            ..diagnostic(None, None)
        };
        let report = Report::new(None, Vec::new(), vec![diagnostic(Some(5), None), warning]);
        assert_eq!(report.summary(), "1 error, 1 warning");
        assert_eq!(
            Report::new(None, Vec::new(), Vec::new()).summary(),
            "0 errors, 0 warnings"
        );
    }
}
