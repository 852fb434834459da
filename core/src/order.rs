//! Sorting with one copy of the standard library's sort.
//!
//! The standard library's sorts are generic over the comparison as well as
//! the element: every `sort_by_key` with a closure of its own is a separate
//! copy of the whole sort, about 3.5 KB of WASM each, and the browser app had
//! twenty of them. Here every sort orders `usize` indices, comparing through
//! a trait object, so a module holds one copy of the sort; a slice of
//! anything else is then moved into the order found. Core and the app sort
//! through these functions, never through the slice methods (clippy's
//! `disallowed-methods` in their `clippy.toml` says so).
//!
//! Every sort here is stable; for a total order that is the result an
//! unstable sort gives too.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`.
pub fn sort_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> Ordering) {
    let mut from: Vec<usize> = (0..items.len()).collect();
    sort_indices(&mut from, &|a, b| compare(&items[a], &items[b]));
    permute(items, from);
}

/// Sorts `items` stably by the key `key` gives each.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` stably into their natural order.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The one instantiation of the standard library's sort: indices, compared
/// through a trait object.
#[allow(clippy::disallowed_methods)]
fn sort_indices(indices: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    indices.sort_by(|&a, &b| compare(a, b));
}

/// Rearranges `items` so that position `k` holds what was at `from[k]`,
/// following each cycle of the permutation with swaps.
fn permute<T>(items: &mut [T], mut from: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        while from[at] != start {
            let next = from[at];
            items.swap(at, next);
            from[at] = at;
            at = next;
        }
        from[at] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_stable_and_follow_the_comparison() {
        let mut pairs = vec![(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd'), (1, 'e')];
        sort_by_key(&mut pairs, |p| p.0);
        assert_eq!(pairs, [(0, 'd'), (1, 'b'), (1, 'e'), (2, 'a'), (2, 'c')]);
        sort_by(&mut pairs, |a, b| b.1.cmp(&a.1));
        assert_eq!(pairs, [(1, 'e'), (0, 'd'), (2, 'c'), (1, 'b'), (2, 'a')]);
        let mut words = vec!["pear", "apple", "fig"];
        sort(&mut words);
        assert_eq!(words, ["apple", "fig", "pear"]);
    }

    proptest::proptest! {
        #[test]
        fn sorts_as_the_standard_library_sorts(mut items: Vec<(u8, u16)>) {
            let mut expected = items.clone();
            #[allow(clippy::disallowed_methods)]
            expected.sort_by_key(|p| p.0);
            sort_by_key(&mut items, |p| p.0);
            proptest::prop_assert_eq!(items, expected);
        }
    }
}
