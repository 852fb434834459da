//! A YAML loader that keeps where every value came from.
//!
//! Plugin validation reports each problem with file, YAML path and line, and
//! reports a duplicate key with both of its lines instead of refusing the
//! file. So plugin files are read into [`Node`]s — values with their line —
//! built from the parser's events: anchors and aliases are expanded (within a
//! node budget, against alias bombs), `<<` merge keys merged, `!!pairs` read
//! as a list of `[key, value]` pairs, and plain scalars resolved the way the
//! PyYAML-era Fuel files were written (`yes`/`no`/`on`/`off` are booleans).

use std::collections::HashMap;

use std::fmt::Write as _;

use serde_json::Value as Json;
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::LoadError;

/// Bounds that keep a hostile file from exhausting memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, in bytes.
    pub max_bytes: usize,
    /// Most nodes a document may hold once aliases are expanded.
    pub max_nodes: usize,
    /// Deepest nesting of lists and maps.
    pub max_depth: usize,
}

impl Default for Limits {
    /// 8 MiB, 1,000,000 nodes (SEMANTICS §7.3), 128 levels.
    fn default() -> Self {
        Limits {
            max_bytes: 8 << 20,
            max_nodes: 1_000_000,
            max_depth: 128,
        }
    }
}

/// A value and the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    /// 1-based.
    pub line: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    String(String),
    Seq(Vec<Node>),
    /// Entries in file order; keys are unique (a repeated key keeps its first
    /// place and its last value).
    Map(Vec<Entry>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub key: String,
    /// The line of the key.
    pub line: usize,
    pub value: Node,
}

/// A key given twice in one map: an error the validator reports, after
/// which loading goes on with the later value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The YAML path of the map (`controller.limits`; empty at the top).
    pub path: String,
    pub key: String,
    pub first_line: usize,
    pub line: usize,
}

/// One loaded file.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub root: Node,
    pub duplicates: Vec<DuplicateKey>,
}

impl Node {
    fn new(value: Value, line: usize) -> Node {
        Node { value, line }
    }

    /// The value under `key` when this is a map.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|e| e.key == key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }

    /// How the value is called in messages: "a string", "a list", ….
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "empty",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::String(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// A scalar as text (numbers and booleans as YAML writes them).
    pub fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::String(s) => Some(s.clone()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// The node at a path such as `mongo.limits.overrides[0].condition`;
    /// the deepest node found on the way when the path goes further.
    pub fn find(&self, path: &str) -> &Node {
        let mut node = self;
        for step in path_steps(path) {
            let next = match step {
                Step::Key(key) => node.get(key),
                Step::Index(i) => node.as_seq().and_then(|items| items.get(i)),
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        node
    }

    /// The line of the key at the end of `path` when it names a map entry,
    /// else the line of the node there.
    pub fn line_of(&self, path: &str) -> usize {
        if let Some(at) = path.rfind(['.', '['])
            && path.as_bytes()[at] == b'.'
            && let Some(entry) = self.find(&path[..at]).entry(&path[at + 1..])
        {
            return entry.line;
        }
        if !path.contains(['.', '['])
            && let Some(entry) = self.entry(path)
        {
            return entry.line;
        }
        self.find(path).line
    }

    /// The value as JSON (maps keep their order; non-finite floats become
    /// strings, as JSON has no such numbers).
    pub fn to_json(&self) -> Json {
        match &self.value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f)
                .map(Json::Number)
                .unwrap_or_else(|| Json::String(f.to_string())),
            Value::String(s) => Json::String(s.clone()),
            Value::Seq(items) => Json::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => Json::Object(
                entries
                    .iter()
                    .map(|e| (e.key.clone(), e.value.to_json()))
                    .collect(),
            ),
        }
    }
}

enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Splits `a.b[2].c` into its steps.
fn path_steps(path: &str) -> Vec<Step<'_>> {
    let mut steps = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, mut rest) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            steps.push(Step::Key(key));
        }
        // `[N]` steps; anything else (a key such as `a[]]`) ends the path here.
        while let Some(inner) = rest.strip_prefix('[')
            && let Some(end) = inner.find(']')
        {
            if let Ok(i) = inner[..end].parse() {
                steps.push(Step::Index(i));
            }
            rest = &inner[end + 1..];
        }
    }
    steps
}

/// Appends a map key or list index to a YAML path.
pub fn join_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

pub fn index_path(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

enum Frame {
    Seq {
        line: usize,
        anchor: usize,
        pairs: bool,
        items: Vec<Node>,
    },
    Map {
        line: usize,
        anchor: usize,
        entries: Vec<Entry>,
        /// Where each key is in `entries`: duplicate keys are found in
        /// constant time, not by scanning (a map may have a million keys).
        index: HashMap<String, usize>,
        /// A key read, waiting for its value: text, line, whether it is `<<`.
        key: Option<(String, usize, bool)>,
        merges: Vec<Node>,
    },
}

struct Builder<'a> {
    file: &'a str,
    limits: Limits,
    stack: Vec<Frame>,
    anchors: Vec<Option<(Node, usize)>>,
    nodes: usize,
    duplicates: Vec<DuplicateKey>,
    root: Option<Node>,
}

/// Loads the first document of `text` (the contents of `file`). Syntax
/// errors and exceeded limits are a [`LoadError`]; duplicate keys are
/// returned with the document.
///
/// A flow collection's closing `]` or `}` on a line of its own, indented
/// like the key that opens it, is accepted as PyYAML (and so Fuel) accepted
/// it: Fuel's own release fixture writes its DPDK driver lists that way,
/// although YAML 1.2 asks for one more space. The line is indented like the
/// collection's last line and the document parsed again, at most
/// [`MAX_REINDENTS`] times.
pub fn load(file: &str, text: &str, limits: Limits) -> Result<Document, LoadError> {
    if text.len() > limits.max_bytes {
        return Err(LoadError::new(
            file,
            format!(
                "the file is {} bytes; files over {} bytes are refused",
                text.len(),
                limits.max_bytes
            ),
        ));
    }
    let mut text = std::borrow::Cow::Borrowed(text);
    let mut reindents = 0;
    loop {
        let error = match load_once(file, &text, limits) {
            Ok(document) => return Ok(document),
            Err(error) => error,
        };
        let closing = match error.line {
            Some(line) if error.message == "invalid indentation" && reindents < MAX_REINDENTS => {
                reindent_closing(&text, line)
            }
            _ => None,
        };
        match closing {
            Some(fixed) => {
                text = std::borrow::Cow::Owned(fixed);
                reindents += 1;
            }
            None => return Err(error),
        }
    }
}

/// How many under-indented closing brackets [`load`] accepts in one file:
/// each costs a parse of the whole file again (Fuel's fixture has one).
pub const MAX_REINDENTS: usize = 8;

/// `text` with its 1-based `line` indented like the nearest line above that
/// holds content, when `line` holds only a closing `]` or `}` (and maybe
/// `,` or a comment) and that line is indented further.
fn reindent_closing(text: &str, line: usize) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let target = *lines.get(line.checked_sub(1)?)?;
    let content = target.trim_start_matches(' ');
    let rest = content.trim_end().get(1..)?.trim_start_matches([',', ' ']);
    if !content.starts_with([']', '}']) || !(rest.is_empty() || rest.starts_with('#')) {
        return None;
    }
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let above = lines[..line - 1]
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))?;
    if indent(above) <= indent(target) {
        return None;
    }
    let mut fixed = String::with_capacity(text.len() + indent(above));
    for (i, l) in lines.iter().enumerate() {
        if i > 0 {
            fixed.push('\n');
        }
        if i == line - 1 {
            fixed.push_str(&" ".repeat(indent(above)));
            fixed.push_str(content);
        } else {
            fixed.push_str(l);
        }
    }
    Some(fixed)
}

fn load_once(file: &str, text: &str, limits: Limits) -> Result<Document, LoadError> {
    let mut builder = Builder {
        file,
        limits,
        stack: Vec::new(),
        anchors: Vec::new(),
        nodes: 0,
        duplicates: Vec::new(),
        root: None,
    };
    let mut parser = Parser::new_from_str(text);
    let mut documents = 0;
    loop {
        let (event, mark) = parser.next_token().map_err(|e| LoadError {
            file: file.to_owned(),
            line: Some(e.marker().line()),
            column: Some(e.marker().col() + 1),
            message: e.info().to_owned(),
        })?;
        match event {
            Event::StreamEnd => break,
            Event::DocumentStart => {
                documents += 1;
                if documents > 1 {
                    return Err(
                        builder.error(mark, "a file holds one YAML document; this is a second one")
                    );
                }
            }
            other => builder.event(other, mark)?,
        }
    }
    let root = builder.root.take().unwrap_or(Node::new(Value::Null, 1));
    Ok(Document {
        root,
        duplicates: builder.duplicates,
    })
}

fn is_core_tag(tag: &Option<Tag>, suffix: &str) -> bool {
    tag.as_ref()
        .is_some_and(|t| t.handle == "tag:yaml.org,2002:" && t.suffix == suffix)
}

impl Builder<'_> {
    fn error(&self, mark: Marker, message: impl Into<String>) -> LoadError {
        LoadError {
            file: self.file.to_owned(),
            line: Some(mark.line()),
            column: Some(mark.col() + 1),
            message: message.into(),
        }
    }

    fn count(&mut self, mark: Marker, n: usize) -> Result<(), LoadError> {
        self.nodes += n;
        if self.nodes > self.limits.max_nodes {
            return Err(self.error(
                mark,
                format!(
                    "the document expands to more than {} values (through aliases?); refused as a likely YAML bomb",
                    self.limits.max_nodes
                ),
            ));
        }
        Ok(())
    }

    fn event(&mut self, event: Event, mark: Marker) -> Result<(), LoadError> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.count(mark, 1)?;
                let value = resolve(&text, style, &tag);
                self.finish(Node::new(value, mark.line()), anchor, 1, mark)
            }
            Event::Alias(id) => {
                let Some(Some((node, size))) = self.anchors.get(id).cloned() else {
                    return Err(self.error(
                        mark,
                        "an alias refers to an anchor that is not defined before it",
                    ));
                };
                self.count(mark, size)?;
                self.finish(Node::new(node.value, mark.line()), 0, size, mark)
            }
            Event::SequenceStart(anchor, tag) => {
                self.push(mark)?;
                self.stack.push(Frame::Seq {
                    line: mark.line(),
                    anchor,
                    pairs: is_core_tag(&tag, "pairs") || is_core_tag(&tag, "omap"),
                    items: Vec::new(),
                });
                Ok(())
            }
            Event::MappingStart(anchor, _) => {
                self.push(mark)?;
                self.stack.push(Frame::Map {
                    line: mark.line(),
                    anchor,
                    entries: Vec::new(),
                    index: HashMap::new(),
                    key: None,
                    merges: Vec::new(),
                });
                Ok(())
            }
            Event::SequenceEnd => self.end_sequence(mark),
            Event::MappingEnd => self.end_mapping(mark),
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => Ok(()),
            Event::StreamEnd | Event::DocumentStart => Ok(()),
        }
    }

    /// A sequence read: its items (each a one-key map under `!!pairs`).
    fn end_sequence(&mut self, mark: Marker) -> Result<(), LoadError> {
        let Some(Frame::Seq {
            line,
            anchor,
            pairs,
            items,
        }) = self.stack.pop()
        else {
            unreachable!("the parser balances sequences")
        };
        let items = if pairs {
            items
                .into_iter()
                .map(|item| {
                    pair(item).map_err(|line| LoadError {
                        file: self.file.to_owned(),
                        line: Some(line),
                        column: None,
                        message: "a !!pairs entry must be a map with exactly one key".to_owned(),
                    })
                })
                .collect::<Result<_, _>>()?
        } else {
            items
        };
        let size = 1 + items.iter().map(size_of).sum::<usize>();
        self.finish(Node::new(Value::Seq(items), line), anchor, size, mark)
    }

    /// A mapping read: its entries, then those of its `<<` merges that it
    /// does not write itself.
    fn end_mapping(&mut self, mark: Marker) -> Result<(), LoadError> {
        let Some(Frame::Map {
            line,
            anchor,
            mut entries,
            mut index,
            merges,
            ..
        }) = self.stack.pop()
        else {
            unreachable!("the parser balances mappings")
        };
        // Keys written in the map win over merged ones; among merged
        // maps the first one listed wins.
        for merged in merges {
            for source in self.merge_sources(merged)? {
                for entry in source {
                    if !index.contains_key(&entry.key) {
                        index.insert(entry.key.clone(), entries.len());
                        entries.push(entry);
                    }
                }
            }
        }
        let size = 1 + entries.iter().map(|e| size_of(&e.value)).sum::<usize>();
        self.finish(Node::new(Value::Map(entries), line), anchor, size, mark)
    }

    /// The maps a `<<` merge names: a map, or a list of maps.
    fn merge_sources(&self, merged: Node) -> Result<Vec<Vec<Entry>>, LoadError> {
        let refused = |line| LoadError {
            file: self.file.to_owned(),
            line: Some(line),
            column: None,
            message: "a `<<` merge takes a map or a list of maps".to_owned(),
        };
        match merged.value {
            Value::Map(m) => Ok(vec![m]),
            Value::Seq(items) => items
                .into_iter()
                .map(|i| match i.value {
                    Value::Map(m) => Ok(m),
                    _ => Err(refused(i.line)),
                })
                .collect(),
            _ => Err(refused(merged.line)),
        }
    }

    fn push(&mut self, mark: Marker) -> Result<(), LoadError> {
        self.count(mark, 1)?;
        if self.stack.len() >= self.limits.max_depth {
            return Err(self.error(
                mark,
                format!(
                    "lists and maps nest deeper than {} levels",
                    self.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    /// The YAML path of the innermost open collection.
    fn path(&self) -> String {
        let mut path = String::new();
        for frame in &self.stack {
            match frame {
                Frame::Seq { items, .. } => {
                    let _ = write!(path, "[{}]", items.len());
                }
                Frame::Map {
                    key: Some((k, ..)), ..
                } => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                }
                Frame::Map { .. } => {}
            }
        }
        path
    }

    /// A complete node: remember its anchor and hand it to its parent.
    /// The path of the map being read when a value for its pending key
    /// arrives, without that key (empty elsewhere).
    fn path_of_map(&self) -> String {
        let Some(Frame::Map { key: Some(_), .. }) = self.stack.last() else {
            return String::new();
        };
        let full = self.path();
        match full.rfind('.') {
            Some(at) => full[..at].to_owned(),
            None if full.ends_with(']') => full,
            None => String::new(),
        }
    }

    fn finish(
        &mut self,
        node: Node,
        anchor: usize,
        size: usize,
        mark: Marker,
    ) -> Result<(), LoadError> {
        if anchor > 0 {
            if self.anchors.len() <= anchor {
                self.anchors.resize(anchor + 1, None);
            }
            self.anchors[anchor] = Some((node.clone(), size));
        }
        let path_of_map = self.path_of_map();
        match self.stack.last_mut() {
            None => {
                self.root = Some(node);
                Ok(())
            }
            Some(Frame::Seq { items, .. }) => {
                items.push(node);
                Ok(())
            }
            Some(Frame::Map {
                entries,
                index,
                key,
                merges,
                ..
            }) => match key.take() {
                None => {
                    let merge = matches!(&node.value, Value::String(s) if s == "<<");
                    let Some(text) = key_text(&node.value) else {
                        return Err(
                            self.error(mark, "map keys must be plain values, not lists or maps")
                        );
                    };
                    *key = Some((text, node.line, merge));
                    Ok(())
                }
                Some((_, _, true)) => {
                    merges.push(node);
                    Ok(())
                }
                Some((text, line, false)) => {
                    if let Some(first) = index.get(&text).map(|&at| &mut entries[at]) {
                        self.duplicates.push(DuplicateKey {
                            path: path_of_map,
                            key: text,
                            first_line: first.line,
                            line,
                        });
                        first.value = node;
                    } else {
                        index.insert(text.clone(), entries.len());
                        entries.push(Entry {
                            key: text,
                            line,
                            value: node,
                        });
                    }
                    Ok(())
                }
            },
        }
    }
}

/// `{k: v}` → `[k, v]`, for `!!pairs`; the line of a bad entry otherwise.
fn pair(item: Node) -> Result<Node, usize> {
    match item.value {
        Value::Map(mut entries) if entries.len() == 1 => {
            let entry = entries.remove(0);
            let key = Node::new(Value::String(entry.key), entry.line);
            Ok(Node::new(Value::Seq(vec![key, entry.value]), item.line))
        }
        _ => Err(item.line),
    }
}

/// A map key's text: a plain value as written; none for a list or a map.
fn key_text(value: &Value) -> Option<String> {
    Some(match value {
        Value::String(s) => s.clone(),
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Seq(_) | Value::Map(_) => return None,
    })
}

fn size_of(node: &Node) -> usize {
    match &node.value {
        Value::Seq(items) => 1 + items.iter().map(size_of).sum::<usize>(),
        Value::Map(entries) => 1 + entries.iter().map(|e| size_of(&e.value)).sum::<usize>(),
        _ => 1,
    }
}

/// The value of a scalar: quoted ones and `!!str` are strings; plain ones
/// are resolved as YAML 1.1 (PyYAML) did.
/// What a plain (unquoted) scalar `text` reads as: the emitter quotes a
/// string whenever this is not that same string.
pub(crate) fn resolve_plain(text: &str) -> Value {
    resolve(text, TScalarStyle::Plain, &None)
}

fn resolve(text: &str, style: TScalarStyle, tag: &Option<Tag>) -> Value {
    if let Some(tag) = tag {
        if tag.handle == "tag:yaml.org,2002:" {
            match tag.suffix.as_str() {
                "str" => return Value::String(text.to_owned()),
                "null" => return Value::Null,
                "bool" => {
                    if let Some(b) = boolean(text) {
                        return Value::Bool(b);
                    }
                }
                "int" => {
                    if let Some(i) = integer(text) {
                        return Value::Int(i);
                    }
                }
                "float" => {
                    if let Some(f) = float(text).or_else(|| integer(text).map(|i| i as f64)) {
                        return Value::Float(f);
                    }
                }
                _ => {}
            }
        }
        return Value::String(text.to_owned());
    }
    if style != TScalarStyle::Plain {
        return Value::String(text.to_owned());
    }
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Value::Null;
    }
    if let Some(b) = boolean(text) {
        return Value::Bool(b);
    }
    if let Some(i) = integer(text) {
        return Value::Int(i);
    }
    if let Some(f) = float(text) {
        return Value::Float(f);
    }
    Value::String(text.to_owned())
}

fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

fn integer(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let digits = digits.replace('_', "");
    let magnitude = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()?
    } else if let Some(oct) = digits.strip_prefix("0o") {
        i64::from_str_radix(oct, 8).ok()?
    } else if digits.len() > 1 && digits.starts_with('0') {
        i64::from_str_radix(&digits[1..], 8).ok()?
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()?
    } else {
        return None;
    };
    Some(if negative { -magnitude } else { magnitude })
}

fn float(text: &str) -> Option<f64> {
    match text {
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let body = text.trim_start_matches(['-', '+']);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let digits_ok = mantissa.contains('.')
        && mantissa.matches('.').count() == 1
        && mantissa.bytes().any(|b| b.is_ascii_digit())
        && mantissa
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'_');
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.trim_start_matches(['-', '+']);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    if !(digits_ok && exponent_ok) {
        return None;
    }
    text.replace('_', "").parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        load("f.yaml", text, Limits::default()).unwrap()
    }

    fn json(text: &str) -> Json {
        doc(text).root.to_json()
    }

    #[test]
    fn scalars_resolve_as_pyyaml_did() {
        assert_eq!(
            json("[1, -2, 0x1f, 1.5, '1.0', 2.0.0, yes, Off, ~, '', null, !!str 3, .inf, 1e3]"),
            serde_json::json!([
                1, -2, 31, 1.5, "1.0", "2.0.0", true, false, null, "", null, "3", "inf", "1e3"
            ])
        );
    }

    #[test]
    fn a_closing_bracket_indented_like_its_key_is_read_as_pyyaml_read_it() {
        // As Fuel's release fixture writes its DPDK driver lists.
        let text = "net:\n  drivers:\n    igb: [\n      \"8086:100e\", \"8086:100f\",\n      \"1af4:1000\"\n    ]\n    vfio: {\n      a: \"x\"\n    }  # done\r\n  after: 1\n";
        assert_eq!(
            json(text),
            serde_json::json!({"net": {
                "drivers": {"igb": ["8086:100e", "8086:100f", "1af4:1000"], "vfio": {"a": "x"}},
                "after": 1
            }})
        );
        assert_eq!(doc(text).root.find("net.after").line, 10);
    }

    #[test]
    fn other_bad_indentation_is_still_refused_where_it_is() {
        let err = load(
            "f.yaml",
            "a:\n  b: [\n    \"x\"\n  ] c\n",
            Limits::default(),
        )
        .unwrap_err();
        assert_eq!(
            (err.line, err.message.as_str()),
            (Some(4), "invalid indentation")
        );
        let lists = |n: usize| {
            (0..n)
                .map(|i| {
                    format!("k:\n  l{i}: [\n    \"x\"\n  ]\n").replacen(
                        "k:\n",
                        "",
                        usize::from(i > 0),
                    )
                })
                .collect::<String>()
        };
        assert!(load("f.yaml", &lists(MAX_REINDENTS), Limits::default()).is_ok());
        let err = load("f.yaml", &lists(MAX_REINDENTS + 1), Limits::default()).unwrap_err();
        assert_eq!(err.message, "invalid indentation");
    }

    #[test]
    fn lines_are_kept_for_values_and_keys() {
        let d = doc("a: 1\nb:\n  - x\n  - {c: 2}\n");
        assert_eq!(d.root.get("b").unwrap().line, 3);
        assert_eq!(d.root.find("b[1].c").line, 4);
        assert_eq!(d.root.line_of("b"), 2);
        assert_eq!(d.root.line_of("b[1].c"), 4);
    }

    #[test]
    fn a_map_with_many_keys_and_merges_loads_in_linear_time() {
        // Quadratic duplicate detection took minutes here.
        let mut text = String::from("base: &b\n");
        for i in 0..50_000 {
            text.push_str(&format!("  k{i}: {i}\n"));
        }
        text.push_str("copy:\n  <<: *b\n  k0: changed\n  k0: twice\n");
        let d = load("big.yaml", &text, Limits::default()).unwrap();
        assert_eq!(d.duplicates.len(), 1);
        let Value::Map(top) = &d.root.value else {
            panic!()
        };
        let Value::Map(copy) = &top[1].value.value else {
            panic!()
        };
        assert_eq!(copy.len(), 50_000);
    }

    #[test]
    fn duplicate_keys_are_reported_with_both_lines_and_the_later_value_wins() {
        let d = doc("role:\n  limits:\n  name: x\n  limits:\n    min: 1\n");
        assert_eq!(
            d.duplicates,
            [DuplicateKey {
                path: "role".into(),
                key: "limits".into(),
                first_line: 2,
                line: 4
            }]
        );
        assert_eq!(
            d.root.to_json(),
            serde_json::json!({"role": {"limits": {"min": 1}, "name": "x"}})
        );
    }

    #[test]
    fn anchors_aliases_and_merges() {
        let v = json(
            "base: &b {x: 1, y: 2}\ncopy: *b\nmerged:\n  <<: *b\n  y: 3\nmany:\n  <<: [{z: 1}, {z: 2, w: 0}]\n",
        );
        assert_eq!(v["copy"], serde_json::json!({"x": 1, "y": 2}));
        assert_eq!(v["merged"], serde_json::json!({"y": 3, "x": 1}));
        assert_eq!(v["many"], serde_json::json!({"z": 1, "w": 0}));
    }

    #[test]
    fn pairs_become_key_value_lists() {
        let v = json("bind: !!pairs\n  - 'cluster:net_provider': neutron\n  - a: 1\n");
        assert_eq!(
            v["bind"],
            serde_json::json!([["cluster:net_provider", "neutron"], ["a", 1]])
        );
        let err = load(
            "f.yaml",
            "p: !!pairs\n  - a: 1\n    b: 2\n",
            Limits::default(),
        )
        .unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
    }

    #[test]
    fn alias_bombs_and_deep_nesting_are_refused() {
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let refs = vec![format!("*a{}", i - 1); 10].join(", ");
            bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
        }
        let err = load("bomb.yaml", &bomb, Limits::default()).unwrap_err();
        assert!(err.message.contains("YAML bomb"), "{err}");
        let deep = "[".repeat(10_000);
        let err = load("deep.yaml", &deep, Limits::default()).unwrap_err();
        // The parser's own limit (256 flow levels) or ours, whichever first.
        assert!(
            err.message.contains("nest deeper") || err.message.contains("recursion limit"),
            "{err}"
        );
        let block: String = (0..200)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let err = load("deep.yaml", &block, Limits::default()).unwrap_err();
        assert!(err.message.contains("nest deeper"), "{err}");
        let big = "a".repeat(100);
        let limits = Limits {
            max_bytes: 10,
            ..Limits::default()
        };
        assert!(
            load("big.yaml", &big, limits)
                .unwrap_err()
                .message
                .contains("bytes")
        );
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = load("f.yaml", "a: [\n", Limits::default()).unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(1)));
        let err = load("f.yaml", "a: *nope\n", Limits::default()).unwrap_err();
        assert!(err.message.contains("anchor"), "{err}");
        assert!(load("f.yaml", "a: 1\n---\nb: 2\n", Limits::default()).is_err());
    }

    #[test]
    fn empty_files_are_null() {
        assert!(doc("").root.is_null());
        assert!(doc("# only a comment\n").root.is_null());
    }
}
