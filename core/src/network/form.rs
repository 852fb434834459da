//! The Networks tab's form (SEMANTICS §11.3): which fields the tab shows
//! for each network and for Neutron's parameters, what the operator typed
//! into them, and that text read into the change a save sends. The
//! browser keeps the configuration as loaded ([`NetworksForm`]) apart from
//! what was typed ([`Edits`]), so that a configuration loaded again (a
//! node group created, a reload after someone else's save) keeps what the
//! operator is typing; [`ConfigurationView::check_form`] is what it shows
//! as the operator types: the problems of text that is no value at all,
//! then every problem a save would have but for the nodes' interfaces.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::config::{ConfigurationChange, NetworkChange, NetworkingParameters};
use super::ip::{RangeField, Typed};
use super::metadata::{Notation, Segmentation};
use super::problem::{NetworkProblem, ProblemKind};
use super::view::{ConfigurationView, NetworkView};

/// What a field holds, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// One value (`cidr`, `gateway`, `vlan_start`, `base_mac`, …).
    One(String),
    /// A range: its first and last value (`vlan_range`, `baremetal_range`).
    Pair([String; 2]),
    /// Ranges (`ip_ranges`, `floating_ranges`).
    Pairs(Vec<[String; 2]>),
    /// Values (`dns_nameservers`).
    List(Vec<String>),
}

/// One change of a field's text, as a control makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// The whole text of a one-value field.
    One(String),
    /// End `end` (0: first, 1: last) of range `row` (a pair's row is 0).
    End {
        row: usize,
        end: usize,
        text: String,
    },
    /// Item `row` of a list.
    Item {
        row: usize,
        text: String,
    },
    /// An empty range or item at the end.
    AddRow,
    RemoveRow(usize),
}

impl Text {
    fn apply(&mut self, edit: Edit) {
        match (self, edit) {
            (Text::One(text), Edit::One(new)) => *text = new,
            (Text::Pair(pair), Edit::End { end, text, .. }) if end < 2 => pair[end] = text,
            (Text::Pairs(rows), Edit::End { row, end, text }) if end < 2 => {
                if let Some(pair) = rows.get_mut(row) {
                    pair[end] = text;
                }
            }
            (Text::Pairs(rows), Edit::AddRow) => rows.push(Default::default()),
            (Text::Pairs(rows), Edit::RemoveRow(row)) if row < rows.len() => {
                rows.remove(row);
            }
            (Text::List(items), Edit::Item { row, text }) => {
                if let Some(item) = items.get_mut(row) {
                    *item = text;
                }
            }
            (Text::List(items), Edit::AddRow) => items.push(String::new()),
            (Text::List(items), Edit::RemoveRow(row)) if row < items.len() => {
                items.remove(row);
            }
            // An edit of another shape than the field's changes nothing.
            _ => {}
        }
    }

    /// How many ranges or items it holds (1 for one value or a pair).
    pub fn rows(&self) -> usize {
        match self {
            Text::One(_) | Text::Pair(_) => 1,
            Text::Pairs(rows) => rows.len(),
            Text::List(items) => items.len(),
        }
    }

    /// Its one value (empty for the other shapes).
    pub fn one(&self) -> &str {
        match self {
            Text::One(text) => text,
            _ => "",
        }
    }

    /// End `end` of range `row` (a pair's row is 0); empty when there is none.
    pub fn end(&self, row: usize, end: usize) -> &str {
        let pair = match self {
            Text::Pair(pair) if row == 0 => Some(pair),
            Text::Pairs(rows) => rows.get(row),
            _ => None,
        };
        pair.and_then(|p| p.get(end)).map_or("", String::as_str)
    }

    /// Item `row` of a list; empty when there is none.
    pub fn item(&self, row: usize) -> &str {
        match self {
            Text::List(items) => items.get(row).map_or("", String::as_str),
            _ => "",
        }
    }
}

/// What a field's values are: how typed text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Kept as typed (a name, a MAC address: the checks read it).
    Text,
    /// An IPv4 address or a CIDR, kept as typed for the checks; blank:
    /// none.
    Address,
    /// A whole number (a VLAN tag, an id range's end); blank: none.
    Number,
}

/// Where a field is shown on the tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// A network's card (its owner names it).
    Network,
    /// Neutron's L2 parameters: the tenant VLAN or tunnel id range, the
    /// base MAC.
    NeutronL2,
    /// Neutron's L3 parameters: the internal and floating networks, DNS.
    NeutronL3,
    /// Ironic's range and gateway (only with Ironic).
    Ironic,
}

/// Which field: a network's (by id) or a networking parameter's (none),
/// and its key — the name a save and the problems use for it.
pub type FieldKey = (Option<i64>, &'static str);

/// One field of the tab, with its text as loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The network it belongs to; none: a networking parameter.
    pub owner: Option<i64>,
    pub key: &'static str,
    pub label: &'static str,
    pub section: Section,
    pub kind: Kind,
    /// False where the release says the network is not configurable.
    pub editable: bool,
    pub text: Text,
}

impl Field {
    pub fn at(&self) -> FieldKey {
        (self.owner, self.key)
    }
}

/// The fields of a configuration as loaded, in the order the tab shows
/// them: each network's (in the configuration's order), then Neutron's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworksForm {
    pub fields: Vec<Field>,
}

/// What the operator typed, by field; a field typed back to what was
/// loaded is no edit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edits(BTreeMap<FieldKey, Text>);

impl Edits {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn one(text: impl ToString) -> Text {
    Text::One(text.to_string())
}

fn opt(value: Option<impl ToString>) -> Text {
    Text::One(value.map(|v| v.to_string()).unwrap_or_default())
}

fn pairs(ranges: &[RangeField]) -> Text {
    Text::Pairs(
        ranges
            .iter()
            .map(|r| [r.0.to_string(), r.1.to_string()])
            .collect(),
    )
}

fn number_pair(range: [i64; 2]) -> Text {
    Text::Pair([range[0].to_string(), range[1].to_string()])
}

/// The fields of network `n`: none for a network without addresses (its
/// tenant VLANs are Neutron's `vlan_range`); its ranges only where they
/// are given by ranges (under notation `cidr` they follow the CIDR).
fn network_fields(n: &NetworkView) -> Vec<Field> {
    let network = &n.network;
    let field = |key, label, kind, text| Field {
        owner: Some(network.id),
        key,
        label,
        section: Section::Network,
        kind,
        editable: n.meta.configurable,
        text,
    };
    if !n.meta.is_addressed() {
        return Vec::new();
    }
    let mut out = vec![
        field("cidr", "CIDR", Kind::Address, opt(network.cidr.as_ref())),
        field(
            "gateway",
            "Gateway",
            Kind::Address,
            opt(network.gateway.as_ref()),
        ),
        field(
            "vlan_start",
            "VLAN tag",
            Kind::Number,
            opt(network.vlan_start),
        ),
    ];
    if n.meta.notation == Some(Notation::IpRanges) {
        out.push(field(
            "ip_ranges",
            "IP ranges",
            Kind::Address,
            pairs(&network.ip_ranges),
        ));
    }
    out
}

/// Neutron's parameters as fields: the segmentation's id range, then
/// the rest; Ironic's only where the environment has them. Long: one
/// line per field, in the order the tab shows them.
fn parameter_fields(p: &NetworkingParameters) -> Vec<Field> {
    let field = |key, label, section, kind, text| Field {
        owner: None,
        key,
        label,
        section,
        kind,
        editable: true,
        text,
    };
    let (l2, l3) = (Section::NeutronL2, Section::NeutronL3);
    let mut out = Vec::new();
    match (p.segmentation_type, p.vlan_range, p.gre_id_range) {
        (Segmentation::Vlan, Some(range), _) => out.push(field(
            "vlan_range",
            "VLAN ID range",
            l2,
            Kind::Number,
            number_pair(range),
        )),
        (Segmentation::Tun | Segmentation::Gre, _, Some(range)) => out.push(field(
            "gre_id_range",
            "Tunnel ID range",
            l2,
            Kind::Number,
            number_pair(range),
        )),
        _ => {}
    }
    out.extend([
        field(
            "base_mac",
            "Base MAC address",
            l2,
            Kind::Text,
            one(&p.base_mac),
        ),
        field(
            "internal_cidr",
            "Internal network CIDR",
            l3,
            Kind::Address,
            opt(p.internal_cidr.as_ref()),
        ),
        field(
            "internal_gateway",
            "Internal network gateway",
            l3,
            Kind::Address,
            opt(p.internal_gateway.as_ref()),
        ),
        field(
            "internal_name",
            "Internal network name",
            l3,
            Kind::Text,
            one(&p.internal_name),
        ),
        field(
            "floating_ranges",
            "Floating IP ranges",
            l3,
            Kind::Address,
            pairs(&p.floating_ranges),
        ),
        field(
            "floating_name",
            "Floating network name",
            l3,
            Kind::Text,
            one(&p.floating_name),
        ),
        field(
            "dns_nameservers",
            "DNS servers",
            l3,
            Kind::Address,
            Text::List(p.dns_nameservers.iter().map(ToString::to_string).collect()),
        ),
    ]);
    if let Some(range) = &p.baremetal_range {
        out.push(field(
            "baremetal_range",
            "Ironic IP range",
            Section::Ironic,
            Kind::Address,
            Text::Pair([range.0.to_string(), range.1.to_string()]),
        ));
        out.push(field(
            "baremetal_gateway",
            "Ironic gateway",
            Section::Ironic,
            Kind::Address,
            opt(p.baremetal_gateway.as_ref()),
        ));
    }
    out
}

impl NetworksForm {
    /// The fields of `view` with its values.
    pub fn of(view: &ConfigurationView) -> NetworksForm {
        let mut fields: Vec<Field> = view.networks.iter().flat_map(network_fields).collect();
        fields.extend(parameter_fields(&view.networking_parameters));
        NetworksForm { fields }
    }

    pub fn field(&self, at: FieldKey) -> Option<&Field> {
        self.fields.iter().find(|f| f.at() == at)
    }

    /// The fields of network `id`, in order.
    pub fn of_network(&self, id: i64) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(move |f| f.owner == Some(id))
    }

    /// The networking parameters' fields of `section`, in order.
    pub fn of_section(&self, section: Section) -> impl Iterator<Item = &Field> {
        self.fields
            .iter()
            .filter(move |f| f.owner.is_none() && f.section == section)
    }

    /// What field `at` shows: what was typed, or what was loaded.
    pub fn text(&self, edits: &Edits, at: FieldKey) -> Text {
        match edits.0.get(&at) {
            Some(text) => text.clone(),
            None => self
                .field(at)
                .map_or(Text::One(String::new()), |f| f.text.clone()),
        }
    }

    /// `edit` made to field `at` (a field it does not have, or one that is
    /// not editable, is left alone).
    pub fn edit(&self, edits: &mut Edits, at: FieldKey, edit: Edit) {
        let Some(field) = self.field(at).filter(|f| f.editable) else {
            return;
        };
        let mut text = self.text(edits, at);
        text.apply(edit);
        if text == field.text {
            edits.0.remove(&at);
        } else {
            edits.0.insert(at, text);
        }
    }

    /// The fields whose text differs from what was loaded (edits of fields
    /// it does not have, a node group since deleted, not counted).
    pub fn unsaved(&self, edits: &Edits) -> usize {
        self.edited(edits).count()
    }

    fn edited<'a>(&'a self, edits: &'a Edits) -> impl Iterator<Item = (&'a Field, &'a Text)> {
        self.fields.iter().filter_map(move |f| {
            edits
                .0
                .get(&f.at())
                .filter(|text| **text != f.text)
                .map(|text| (f, text))
        })
    }

    /// What was typed as the change a save sends (only the fields that
    /// changed), and the problems of text that is no value at all — each
    /// naming its field, which the change leaves as it was.
    pub fn change(&self, edits: &Edits) -> (ConfigurationChange, Vec<NetworkProblem>) {
        let mut networks: BTreeMap<i64, NetworkChange> = BTreeMap::new();
        let mut parameters = Map::new();
        let mut problems = Vec::new();
        for (field, text) in self.edited(edits) {
            let value = match read(field, text) {
                Ok(value) => value,
                Err(unreadable) => {
                    let problem =
                        NetworkProblem::new(ProblemKind::InvalidValue, unreadable.to_string())
                            .networks(field.owner)
                            .fields(&[field.key]);
                    problems.push(problem);
                    continue;
                }
            };
            match field.owner {
                Some(id) => set_network(networks.entry(id).or_default(), id, field.key, value),
                None => {
                    parameters.insert(field.key.to_owned(), value);
                }
            }
        }
        let change = ConfigurationChange {
            networks: networks.into_values().collect(),
            networking_parameters: (!parameters.is_empty()).then_some(parameters),
            other: Map::new(),
        };
        (change, problems)
    }
}

/// `value` (read by [`read`]) as field `key` of network `id`'s change.
fn set_network(change: &mut NetworkChange, id: i64, key: &str, value: Value) {
    change.id = id;
    match key {
        "cidr" => change.cidr = Some(value.as_str().map(Typed::parse)),
        "gateway" => change.gateway = Some(value.as_str().map(Typed::parse)),
        "vlan_start" => change.vlan_start = Some(value.as_i64()),
        "ip_ranges" => {
            change.ip_ranges = Some(serde_json::from_value(value).unwrap_or_default());
        }
        _ => {}
    }
}

/// Text typed into a field that is no value at all (what the checks of
/// values cannot even read), with the field's label.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    #[error("{label}: '{text}' is not a whole number.")]
    NotANumber { label: &'static str, text: String },
    #[error("{label}: give the first and the last value of a range.")]
    HalfRange { label: &'static str },
}

/// One value of `field` as the JSON a save carries, or why it is none.
fn value(field: &Field, text: &str) -> Result<Value, Unreadable> {
    let text = text.trim();
    match field.kind {
        Kind::Text => Ok(Value::from(text)),
        Kind::Address if text.is_empty() => Ok(Value::Null),
        Kind::Address => Ok(Value::from(text)),
        Kind::Number if text.is_empty() => Ok(Value::Null),
        Kind::Number => text
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| Unreadable::NotANumber {
                label: field.label,
                text: text.to_owned(),
            }),
    }
}

/// The JSON a save carries for `field` typed as `text`: a range or item
/// left blank is none, a range's two ends are both needed.
fn read(field: &Field, text: &Text) -> Result<Value, Unreadable> {
    let pair = |pair: &[String; 2]| -> Result<Value, Unreadable> {
        let ends = [value(field, &pair[0])?, value(field, &pair[1])?];
        if ends.iter().any(Value::is_null) {
            return Err(Unreadable::HalfRange { label: field.label });
        }
        Ok(Value::from(ends.to_vec()))
    };
    let blank = |pair: &&[String; 2]| pair.iter().all(|end| end.trim().is_empty());
    match text {
        Text::One(text) => value(field, text),
        Text::Pair(ends) => pair(ends),
        Text::Pairs(rows) => rows
            .iter()
            .filter(|row| !blank(row))
            .map(pair)
            .collect::<Result<Vec<_>, _>>()
            .map(Value::from),
        Text::List(items) => items
            .iter()
            .filter(|item| !item.trim().is_empty())
            .map(|item| value(field, item))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::from),
    }
}

/// What the tab shows as the operator types: the change and every
/// problem of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormCheck {
    pub change: ConfigurationChange,
    pub problems: Vec<NetworkProblem>,
}

impl FormCheck {
    /// The problems of field `at`: a network's field those that concern
    /// it, a parameter those that name it.
    pub fn at(&self, at: FieldKey) -> impl Iterator<Item = &NetworkProblem> {
        self.problems.iter().filter(move |p| match at {
            (Some(id), key) => p.concerns(id, key),
            (None, key) => p.fields.iter().any(|f| f == key),
        })
    }

    /// The problems that concern network `id`.
    pub fn of_network(&self, id: i64) -> impl Iterator<Item = &NetworkProblem> {
        self.problems
            .iter()
            .filter(move |p| p.networks.contains(&id))
    }
}

impl ConfigurationView {
    /// What the operator typed into `form`, read and checked as a save
    /// checks it but for the nodes' interfaces (SEMANTICS §11.2): the
    /// problems of text that is no value, then those of the configuration
    /// it makes.
    pub fn check_form(&self, form: &NetworksForm, edits: &Edits) -> FormCheck {
        let (change, mut problems) = form.change(edits);
        if let Err(found) = self.check_change(&change) {
            problems.extend(found);
        }
        FormCheck { change, problems }
    }
}

#[cfg(test)]
mod tests;
