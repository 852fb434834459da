//! Small helpers for the sentences Mosaic writes: words that agree with a
//! count are chosen here, not by an `if` at each sentence; and the order
//! names are listed in (`natural`: `node-2` before `node-10`).

/// `""` for one, `"s"` for any other count.
pub fn plural(count: usize) -> &'static str {
    agree(count, "", "s")
}

/// `one` for one, `many` for any other count: the word that agrees with
/// `count` ("it"/"them", "holds"/"hold", "is"/"are").
pub fn agree<'a>(count: usize, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 { one } else { many }
}

/// `count` and `noun` agreeing with it: "1 error", "3 errors".
pub fn counted(count: usize, noun: &str) -> String {
    format!("{count} {noun}{}", plural(count))
}

/// `names` quoted and listed: `'a', 'b'`.
pub fn quoted<T: std::fmt::Display>(names: &[T]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A sort key that orders runs of digits by their value.
pub fn natural(text: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut letters = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut number = u64::from(c.to_digit(10).unwrap_or(0));
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                number = number.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut letters), number));
        } else {
            letters.extend(c.to_lowercase());
        }
    }
    key.push((letters, 0));
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_agree_with_their_count() {
        assert_eq!(counted(1, "node"), "1 node");
        assert_eq!(counted(0, "node"), "0 nodes");
        assert_eq!(counted(2, "error"), "2 errors");
        assert_eq!(agree(1, "it", "them"), "it");
        assert_eq!(agree(3, "it", "them"), "them");
        assert_eq!(quoted(&["a", "b"]), "'a', 'b'");
    }
}
