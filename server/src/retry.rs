//! Work that loses races tried again: a change checked against what it
//! read (the settings, the nodes, the addresses) and stored only if that
//! did not move meanwhile. The handlers' 409 `busy` (`error::retried`) and
//! a run's import of what it found (`deploy::found`) both try this way.

use std::future::Future;

/// `attempt` tried at most `times` times: its `Ok(Some(_))` is the
/// outcome, its `Ok(None)` — what it was checked against moved before it
/// was stored — tries again, an error stops at once. `None` when every
/// try lost its race.
///
/// `attempt` is a closure returning a future, not an async closure: the
/// future of an async closure borrows the closure, and the compiler cannot
/// yet prove such a future `Send`, which a handler's must be.
pub(crate) async fn attempts<T, E, F>(
    times: usize,
    mut attempt: impl FnMut() -> F,
) -> Result<Option<T>, E>
where
    F: Future<Output = Result<Option<T>, E>>,
{
    for _ in 0..times {
        if let Some(done) = attempt().await? {
            return Ok(Some(done));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lost_race_is_tried_again_and_an_error_stops_at_once() {
        let mut tries = 0;
        let won: Result<Option<&str>, ()> = attempts(3, || {
            tries += 1;
            let now = tries;
            async move { Ok((now == 2).then_some("stored")) }
        })
        .await;
        assert_eq!((won, tries), (Ok(Some("stored")), 2));
        let mut tries = 0;
        let lost: Result<Option<()>, ()> = attempts(3, || {
            tries += 1;
            async { Ok(None) }
        })
        .await;
        assert_eq!((lost, tries), (Ok(None), 3));
        let mut tries = 0;
        let refused: Result<Option<()>, &str> = attempts(3, || {
            tries += 1;
            async { Err("refused") }
        })
        .await;
        assert_eq!((refused, tries), (Err("refused"), 1));
    }
}
