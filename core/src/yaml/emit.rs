//! Writing JSON values as block-style YAML that [`super::tree::load`] reads
//! back as the same values: a string is written plain only when the loader
//! would read that plain text as the same string, else double-quoted.

use serde_json::Value;

use super::tree::{self, Value as Yaml};

/// `value` as a YAML document (maps keep their order).
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => block(&mut out, value, 0),
        Value::Array(items) if !items.is_empty() => block(&mut out, value, 0),
        scalar => {
            inline(&mut out, scalar);
            out.push('\n');
        }
    }
    out
}

/// A non-empty map or list, each entry on its own lines at `indent`.
fn block(out: &mut String, value: &Value, indent: usize) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                out.push_str(&pad);
                string(out, key);
                out.push(':');
                child(out, item, indent + 2);
            }
        }
        Value::Array(items) => {
            for item in items {
                out.push_str(&pad);
                out.push('-');
                child(out, item, indent + 2);
            }
        }
        _ => unreachable!("block() is called with maps and lists only"),
    }
}

/// What follows `key:` or `-`: a nested block on the next lines, or a
/// scalar (or empty collection) on the same line.
fn child(out: &mut String, value: &Value, indent: usize) {
    let nested = match value {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    };
    if nested {
        out.push('\n');
        block(out, value, indent);
    } else {
        out.push(' ');
        inline(out, value);
        out.push('\n');
    }
}

fn inline(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => string(out, s),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// A number as the loader reads it back: PyYAML-era floats need a dot and
/// a signed exponent (`1.0e+300`, not `1e300`).
fn number(out: &mut String, n: &serde_json::Number) {
    let text = n.to_string();
    if !n.is_f64() {
        out.push_str(&text);
        return;
    }
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (text.as_str(), None),
    };
    out.push_str(mantissa);
    if !mantissa.contains('.') {
        out.push_str(".0");
    }
    if let Some(e) = exponent {
        out.push('e');
        if !e.starts_with(['-', '+']) {
            out.push('+');
        }
        out.push_str(e);
    }
}

fn string(out: &mut String, s: &str) {
    if plain_is_safe(s) {
        out.push_str(s);
    } else {
        // A JSON string is a valid YAML double-quoted scalar.
        out.push_str(&Value::String(s.to_owned()).to_string());
    }
}

/// Whether `s` can be written without quotes: only ordinary characters,
/// nothing YAML gives a meaning to, and it reads back as itself.
fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let ordinary = s
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ' ' | ':'));
    ordinary
        && (first.is_ascii_alphanumeric() || first == '_' || first == '/')
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && matches!(tree::resolve_plain(s), Yaml::String(ref read) if read == s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: Value) {
        let text = to_string(&value);
        let read = tree::load("t.yaml", &text, tree::Limits::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(read.root.to_json(), value, "\n{text}");
    }

    #[test]
    fn values_read_back_as_written() {
        round_trip(json!({
            "release_name": "OpenStack 2024.1 on Ubuntu 22.04",
            "words": ["yes", "no", "on", "off", "null", "~", "", " x", "x ", "1", "1.5", "0x1f", "true"],
            "odd": ["a: b", "- x", "#c", "x #y", "'q'", "\"dq\"", "multi\nline", "tab\there", "ünï"],
            "tags": ["mysql:1", "settings:storage.volumes_ceph.value"],
            "empty": {"list": [], "map": {}},
            "numbers": [0, -3, 2.5, 1e300, -1.5e-7, 3.0],
            "nested": [[1, [2]], {"a": {"b": null}}],
            "key with space": true, "1": "one", "yes": "key"
        }));
        round_trip(json!("top"));
        round_trip(json!([]));
    }

    #[test]
    fn plain_where_plain_is_safe() {
        assert_eq!(
            to_string(&json!({"mode": "ha_compact", "plugins": ["a"], "n": 3})),
            "mode: ha_compact\nplugins:\n  - a\nn: 3\n"
        );
        assert_eq!(to_string(&json!({"x": "yes"})), "x: \"yes\"\n");
    }
}
