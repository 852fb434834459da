use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong, as the CLI's JSON names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    Parse,
    Undefined,
    UnknownModel,
    Type,
    TooDeep,
}

/// A parse or evaluation error: the expression, where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprError {
    pub kind: ErrorKind,
    /// Byte range in `source`, when the error has a place.
    pub span: Option<(usize, usize)>,
    pub message: String,
    pub source: String,
}

impl ExprError {
    pub(crate) fn new(
        kind: ErrorKind,
        span: Option<(usize, usize)>,
        message: impl Into<String>,
        source: &str,
    ) -> ExprError {
        ExprError {
            kind,
            span,
            message: message.into(),
            source: source.to_owned(),
        }
    }

    /// The expression, and a caret line under the span:
    ///
    /// ```text
    /// cluster:mode == 'ha
    ///                 ^^^ unterminated string
    /// ```
    pub fn render(&self) -> String {
        let Some((start, end)) = self.span else {
            return format!("{}\n{}", self.source, self.message);
        };
        let width = |s: &str| s.chars().count();
        let start = start.min(self.source.len());
        let end = end.clamp(start, self.source.len());
        let pad = width(&self.source[..start]);
        let carets = width(&self.source[start..end]).max(1);
        format!(
            "{}\n{}{} {}",
            self.source,
            " ".repeat(pad),
            "^".repeat(carets),
            self.message
        )
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExprError {}
