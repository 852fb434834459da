//! Small helpers for the sentences Mosaic writes.

/// `""` for one, `"s"` for any other count.
pub fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// `names` quoted and listed: `'a', 'b'`.
pub fn quoted<T: std::fmt::Display>(names: &[T]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}
