//! A list of records that changes — an environment's nodes, a page's
//! tags, roles, plugins or environments — held one way on every page: the
//! whole list for what reads all of it (filters, counts, sorting), and a
//! signal per row that is shown, which each row reads instead of
//! searching the list.
//!
//! An answer with the whole list (`Records::answer`) reaches every row
//! shown, equal or not, so a control the server did not change goes back
//! to what it says (a refused tick). An answer with only the records a
//! change touched (`Records::patch`, a bulk change's nodes) reaches only
//! their rows; the rest of the page does not move. Rows are keyed by the
//! record's key (`Record::key`), so neither rebuilds a row or loses the
//! focus of the control in use.
//!
//! Written here rather than with `reactive_stores`' keyed fields: those
//! patch an item field by field through `Patch`, which the wire types
//! (core's, without Leptos) cannot implement, and a whole-item patch is
//! all a row needs.

use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;

use leptos::prelude::*;

use crate::api::ApiFailure;

/// A record of a list: what tells it apart from the others.
pub trait Record: Clone + PartialEq + Send + Sync + 'static {
    type Key: Clone + Eq + Hash + Send + Sync + 'static;

    fn key(&self) -> Self::Key;
}

/// The list as last answered or patched (see the module's doc). `Copy`:
/// handed to every component that shows it.
pub struct Records<T: Record> {
    all: RwSignal<Vec<T>>,
    /// Where each key is in `all`.
    at: StoredValue<HashMap<T::Key, usize>>,
    /// The rows shown, each with its record; made when a row first asks.
    rows: StoredValue<HashMap<T::Key, ArcRwSignal<T>>>,
}

impl<T: Record> Clone for Records<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Record> Copy for Records<T> {}

impl<T: Record> Records<T> {
    /// No record yet.
    pub fn new() -> Self {
        Records {
            all: RwSignal::new(Vec::new()),
            at: StoredValue::new(HashMap::new()),
            rows: StoredValue::new(HashMap::new()),
        }
    }

    /// Every record, in the answer's order.
    pub fn all(&self) -> Signal<Vec<T>> {
        self.all.into()
    }

    /// The keys in order, for `<For each=…>`.
    pub fn keys(self) -> impl Fn() -> Vec<T::Key> + Copy + Send + Sync + 'static {
        let all = self.all;
        move || all.with(|l| l.iter().map(Record::key).collect())
    }

    /// Asks for the list with `fetch` and holds what it answers: for a
    /// page's resource, which then says only whether it arrived.
    pub async fn load(
        self,
        fetch: impl Future<Output = Result<Vec<T>, ApiFailure>>,
    ) -> Result<(), ApiFailure> {
        let list = fetch.await?;
        self.answer(list);
        Ok(())
    }

    /// The whole list answered: it replaces the last one, and every row
    /// shown reads its record again; rows whose record went are dropped.
    pub fn answer(&self, list: Vec<T>) {
        let at: HashMap<T::Key, usize> =
            list.iter().enumerate().map(|(k, r)| (r.key(), k)).collect();
        let stale = self.rows.try_update_value(|rows| {
            rows.retain(|key, _| at.contains_key(key));
            rows.iter()
                .map(|(key, row)| (row.clone(), list[at[key]].clone()))
                .collect::<Vec<_>>()
        });
        self.at.set_value(at);
        self.all.try_set(list);
        for (row, record) in stale.unwrap_or_default() {
            row.set(record);
        }
    }

    /// Only the records a change touched: each replaces its own (a new
    /// key comes last), and only their rows change.
    pub fn patch(&self, changed: Vec<T>) {
        self.all.try_update(|all| {
            self.at.update_value(|at| {
                for record in &changed {
                    match at.get(&record.key()) {
                        Some(&k) => all[k] = record.clone(),
                        None => {
                            at.insert(record.key(), all.len());
                            all.push(record.clone());
                        }
                    }
                }
            })
        });
        let rows = self.rows.with_value(|rows| {
            changed
                .into_iter()
                .filter_map(|r| rows.get(&r.key()).map(|row| (row.clone(), r)))
                .collect::<Vec<_>>()
        });
        for (row, record) in rows {
            row.set(record);
        }
    }

    /// The row of `key`: its record, following answers and patches;
    /// `None` when the list has no such record.
    pub fn row(&self, key: &T::Key) -> Option<ArcRwSignal<T>> {
        if let Some(row) = self.rows.with_value(|rows| rows.get(key).cloned()) {
            return Some(row);
        }
        let k = self.at.with_value(|at| at.get(key).copied())?;
        let row = ArcRwSignal::new(self.all.with_untracked(|all| all[k].clone()));
        self.rows.update_value(|rows| {
            rows.insert(key.clone(), row.clone());
        });
        Some(row)
    }
}

impl<T: Record> Default for Records<T> {
    fn default() -> Self {
        Records::new()
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[derive(Debug, Clone, PartialEq)]
    struct Item(i64, &'static str);

    impl Record for Item {
        type Key = i64;

        fn key(&self) -> i64 {
            self.0
        }
    }

    #[wasm_bindgen_test]
    fn a_patch_changes_its_rows_and_keeps_the_others() {
        let owner = Owner::new();
        owner.with(|| {
            let records = Records::new();
            records.answer(vec![Item(1, "a"), Item(2, "b")]);
            let one = records.row(&1).unwrap();
            let two = records.row(&2).unwrap();
            records.patch(vec![Item(2, "B"), Item(3, "c")]);
            assert_eq!(one.get_untracked(), Item(1, "a"));
            assert_eq!(two.get_untracked(), Item(2, "B"));
            assert_eq!((records.keys())(), [1, 2, 3]);
            assert_eq!(records.row(&3).unwrap().get_untracked(), Item(3, "c"));
            records.answer(vec![Item(3, "C")]);
            assert_eq!(records.all().get_untracked(), [Item(3, "C")]);
            assert!(records.row(&1).is_none());
        });
    }
}
