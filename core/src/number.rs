//! Decimal numbers as operators and plugin authors write them.
//!
//! Read through serde_json's number parser, which every program using core
//! has anyway, instead of the standard library's `f64::from_str`: that one
//! brings a 10 KB table of powers of five into the browser app, and table
//! data does not compress. The two agree exactly for up to 15 significant
//! digits times a power of ten within 10^±22 (the property test below);
//! beyond that serde_json may round differently in the last binary digit,
//! which no setting or expression depends on.

/// `text` as a number: an optional sign, digits with an optional fraction
/// (`.5` and `5.` too), an optional exponent (`1e3`, `2.5E-4`). `None` for
/// anything else (`inf`, `NaN`, `0x10`, empty text) and for numbers too
/// large for a float.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let exponent_digits = exponent.map(|e| e.strip_prefix(['+', '-']).unwrap_or(e));
    if exponent_digits.is_some_and(|e| e.is_empty() || !digits(e)) {
        return None;
    }
    // The same number in JSON's stricter syntax: no '+', no leading zeros,
    // a digit on each side of the point.
    let mut json = String::with_capacity(text.len() + 2);
    if negative {
        json.push('-');
    }
    let int = int.trim_start_matches('0');
    json.push_str(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if let Some(e) = exponent {
        json.push('e');
        json.push_str(e);
    }
    // Through a `Value`, the one JSON reader the browser already has.
    serde_json::from_str::<serde_json::Value>(&json)
        .ok()?
        .as_f64()
}

/// `n` as a JSON number: a whole number as an integer (`8`, not `8.0`)
/// while every integer up to it is exact in a float (2^53), any other as a
/// float; `None` for an infinity or NaN, which JSON has no number for.
pub fn to_json(n: f64) -> Option<serde_json::Number> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.fract() == 0.0 && n.abs() <= EXACT {
        return Some((n as i64).into());
    }
    serde_json::Number::from_f64(n)
}

#[cfg(test)]
mod tests {
    use super::{parse_decimal, to_json};

    #[test]
    fn whole_numbers_are_json_integers_while_exact() {
        for (n, text) in [
            (8.0, "8"),
            (-3.0, "-3"),
            (0.5, "0.5"),
            (9_007_199_254_740_992.0, "9007199254740992"),
            (1e300, "1e+300"),
        ] {
            assert_eq!(
                to_json(n).map(|n| n.to_string()).as_deref(),
                Some(text),
                "{n}"
            );
        }
        assert_eq!(to_json(f64::NAN), None);
        assert_eq!(to_json(f64::INFINITY), None);
    }

    #[test]
    fn numbers_in_the_forms_people_write_them() {
        for (text, n) in [
            ("0", 0.0),
            ("42", 42.0),
            ("-7", -7.0),
            ("+7", 7.0),
            ("007", 7.0),
            ("1.5", 1.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("0.1", 0.1),
            ("1e3", 1000.0),
            ("2.5E-4", 0.00025),
            ("-0.0", -0.0),
        ] {
            assert_eq!(parse_decimal(text), Some(n), "{text}");
        }
    }

    #[test]
    fn anything_else_is_not_a_number() {
        for text in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "inf", "NaN", "0x10", "1_000", " 1",
            "1 ", "--1", "1e999",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_the_standard_library(
            int in 0u64..1_000_000_000,
            frac in proptest::option::of(0u64..1_000_000),
            // Down to -16: a fraction moves the power of ten by up to 6.
            exponent in proptest::option::of(-16i32..=22),
            negative: bool,
        ) {
            let mut text = format!("{}{int}", if negative { "-" } else { "" });
            if let Some(frac) = frac {
                text.push_str(&format!(".{frac}"));
            }
            if let Some(e) = exponent {
                text.push_str(&format!("e{e}"));
            }
            proptest::prop_assert_eq!(parse_decimal(&text), text.parse::<f64>().ok(), "{}", text);
        }
    }
}
