//! Instants: the clock read in Unix seconds (`now`) or milliseconds
//! (`now_millis`, a run's times), and stored instants as people and
//! scripts read them, RFC 3339 UTC (`2026-11-22T09:30:00Z`), written by
//! the `time` crate.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// `seconds` since 1970-01-01T00:00:00Z as RFC 3339, UTC, whole seconds.
/// An instant outside the years RFC 3339 writes (0000 to 9999), which no
/// clock gives, is shown as its seconds.
pub fn rfc3339(seconds: i64) -> String {
    OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| seconds.to_string())
}

/// `millis` since 1970-01-01T00:00:00Z as RFC 3339, UTC, with
/// milliseconds (a run's times).
pub fn rfc3339_millis(millis: i64) -> String {
    let nanos = i128::from(millis) * 1_000_000;
    OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| millis.to_string())
}

/// The clock now, in Unix seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The clock now, in Unix milliseconds.
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::{rfc3339, rfc3339_millis};

    #[test]
    fn milliseconds() {
        assert_eq!(
            rfc3339_millis(1_795_340_245_123),
            "2026-11-22T09:37:25.123Z"
        );
        assert_eq!(rfc3339_millis(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_795_340_245), "2026-11-22T09:37:25Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn only_years_0000_to_9999_are_dates() {
        assert_eq!(rfc3339(-62_167_219_200), "0000-01-01T00:00:00Z");
        assert_eq!(rfc3339(253_402_300_799), "9999-12-31T23:59:59Z");
        assert_eq!(rfc3339(253_402_300_800), "253402300800");
        assert_eq!(rfc3339(i64::MIN), i64::MIN.to_string());
    }
}
