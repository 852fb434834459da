//! Sign-in throttling: failed sign-ins are counted per user name and per
//! client address, and past a few within a window `POST /api/v1/session`
//! answers 429 with `Retry-After` before any password is verified.
//!
//! The counting is governor's GCRA: a key may fail `burst` times at once,
//! and gets one more attempt back every `window / burst`, all of them after
//! the window. Every attempt takes one, before the password is verified; a
//! success gives the address its attempt back and forgets the user name's
//! count. The state is kept in memory per replica (each replica counts on
//! its own: the window bounds what that adds), in [`Store`], a map capped at
//! [`MAX_KEYS`] keys so that a flood of made-up user names or addresses
//! cannot grow it without bound.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use governor::clock::{Clock, MonotonicClock};
use governor::nanos::Nanos;
use governor::state::StateStore;
use governor::state::keyed::ShrinkableKeyedStateStore;
use governor::{Quota, RateLimiter};
use sha2::{Digest, Sha256};

/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Failed sign-ins of one user name within [`WINDOW`], from anywhere.
pub const PER_USER: u32 = 5;
/// Failed sign-ins from one client address within [`WINDOW`], whatever the
/// user names: larger, so that the people behind one address can mistype.
pub const PER_ADDRESS: u32 = 20;
/// The most keys each of the two counts keeps; past it the keys that are
/// back to a fresh state go first, then the ones closest to it, an eighth
/// of them at once (so that a flood does not scan the map on every key).
pub const MAX_KEYS: usize = 65_536;

/// The two counts of one server.
#[derive(Debug)]
pub struct SignInThrottle {
    users: Keyed<[u8; 32]>,
    addresses: Keyed<IpAddr>,
}

impl Default for SignInThrottle {
    fn default() -> Self {
        SignInThrottle {
            users: Keyed::new(PER_USER),
            addresses: Keyed::new(PER_ADDRESS),
        }
    }
}

/// One sign-in attempt let through: what it took, to settle on success.
#[derive(Debug)]
pub struct Attempt {
    user: [u8; 32],
    address: Option<IpAddr>,
}

impl SignInThrottle {
    /// Takes one attempt from `username`'s and `address`'s counts; `Err`
    /// with how long to wait when either has none left (and then takes
    /// nothing from the other). The user name is counted whether or not
    /// such a user exists, by its digest (a fixed size, whatever was sent).
    pub fn attempt(&self, username: &str, address: Option<IpAddr>) -> Result<Attempt, Duration> {
        let user: [u8; 32] = Sha256::digest(username.as_bytes()).into();
        let address = address.map(address_key);
        if let Some(address) = address {
            self.addresses.take(&address)?;
        }
        if let Err(wait) = self.users.take(&user) {
            if let Some(address) = address {
                self.addresses.give_back(&address);
            }
            return Err(wait);
        }
        Ok(Attempt { user, address })
    }

    /// A successful sign-in: the user name's count starts again, and the
    /// address gets its attempt back.
    pub fn succeeded(&self, attempt: Attempt) {
        self.users.store.forget(&attempt.user);
        if let Some(address) = attempt.address {
            self.addresses.give_back(&address);
        }
    }
}

/// The key of a client address: IPv4 as is; IPv6 by its /64, the block one
/// host is usually given.
fn address_key(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
        v4 => v4,
    }
}

/// A keyed GCRA limiter over a [`Store`] this module can also reach.
#[derive(Debug)]
struct Keyed<K: Hash + Eq + Clone> {
    limiter: RateLimiter<K, Store<K>, MonotonicClock>,
    store: Store<K>,
    /// Time one attempt gives back: `WINDOW / burst`.
    period: Nanos,
}

impl<K: Hash + Eq + Clone> Keyed<K> {
    fn new(burst: u32) -> Self {
        let burst = NonZeroU32::new(burst).expect("a burst of at least one");
        let quota = Quota::with_period(WINDOW / burst.get())
            .expect("a window longer than zero")
            .allow_burst(burst);
        let store = Store::default();
        Keyed {
            limiter: RateLimiter::new(quota, store.clone(), MonotonicClock),
            store,
            period: Nanos::from(WINDOW / burst.get()),
        }
    }

    /// Takes one attempt for `key`, or says how long until one is back.
    fn take(&self, key: &K) -> Result<(), Duration> {
        if self.store.len() >= MAX_KEYS {
            self.limiter.retain_recent();
            self.store.evict_to(MAX_KEYS - MAX_KEYS / 8);
        }
        self.limiter.check_key(key).map_err(|not_until| {
            not_until
                .wait_time_from(MonotonicClock.now())
                .max(Duration::from_secs(1))
        })
    }

    fn give_back(&self, key: &K) {
        self.store.give_back(key, self.period);
    }
}

/// Each key's theoretical arrival time (GCRA's one number), under one lock:
/// a sign-in takes it twice, briefly, and argon2 dwarfs that.
#[derive(Debug)]
struct Store<K>(Arc<Mutex<HashMap<K, Nanos>>>);

impl<K> Clone for Store<K> {
    fn clone(&self) -> Self {
        Store(Arc::clone(&self.0))
    }
}

impl<K> Default for Store<K> {
    fn default() -> Self {
        Store(Arc::default())
    }
}

impl<K: Hash + Eq + Clone> Store<K> {
    fn map(&self) -> MutexGuard<'_, HashMap<K, Nanos>> {
        // A panic while holding the lock leaves a map of plain numbers.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn forget(&self, key: &K) {
        self.map().remove(key);
    }

    fn give_back(&self, key: &K, period: Nanos) {
        if let Some(tat) = self.map().get_mut(key) {
            *tat = tat.saturating_sub(period);
        }
    }

    /// Drops the keys closest to a fresh state (the smallest arrival times)
    /// until at most `len` are left.
    fn evict_to(&self, len: usize) {
        let mut map = self.map();
        if map.len() <= len {
            return;
        }
        let mut tats: Vec<u64> = map.values().map(|t| t.as_u64()).collect();
        let excess = map.len() - len;
        let (_, &mut cut, _) = tats.select_nth_unstable(excess - 1);
        map.retain(|_, tat| tat.as_u64() > cut);
    }
}

impl<K: Hash + Eq + Clone> StateStore for Store<K> {
    type Key = K;

    fn measure_and_replace<T, F, E>(&self, key: &K, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let mut map = self.map();
        let (outcome, tat) = f(map.get(key).copied())?;
        map.insert(key.clone(), tat);
        Ok(outcome)
    }
}

impl<K: Hash + Eq + Clone> ShrinkableKeyedStateStore<K> for Store<K> {
    fn retain_recent(&self, drop_below: Nanos) {
        self.map().retain(|_, tat| *tat > drop_below);
    }

    fn shrink_to_fit(&self) {
        self.map().shrink_to_fit();
    }

    fn len(&self) -> usize {
        self.map().len()
    }

    fn is_empty(&self) -> bool {
        self.map().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_store_stays_within_its_cap_dropping_the_freshest_states() {
        let store: Store<u32> = Store::default();
        for key in 0..10u32 {
            store.map().insert(key, Nanos::from(u64::from(key) * 10));
        }
        store.evict_to(4);
        let mut left: Vec<u32> = store.map().keys().copied().collect();
        left.sort_unstable();
        assert_eq!(left, [6, 7, 8, 9]);
    }

    #[test]
    fn a_flood_of_made_up_names_stays_within_the_cap() {
        let throttle = SignInThrottle::default();
        for n in 0..MAX_KEYS + 5_000 {
            throttle.attempt(&format!("name{n}"), None).unwrap();
        }
        assert!(throttle.users.store.len() <= MAX_KEYS);
        // The newest names are still counted.
        let newest = format!("name{}", MAX_KEYS + 4_999);
        for _ in 1..PER_USER {
            throttle.attempt(&newest, None).unwrap();
        }
        throttle.attempt(&newest, None).unwrap_err();
    }

    #[test]
    fn a_name_fails_per_user_times_then_waits_and_a_success_resets_it() {
        let throttle = SignInThrottle::default();
        for _ in 0..PER_USER {
            throttle.attempt("alice", None).unwrap();
        }
        let wait = throttle.attempt("alice", None).unwrap_err();
        assert!(wait <= WINDOW / PER_USER && wait >= Duration::from_secs(1));
        // Another name is counted apart.
        let bob = throttle.attempt("bob", None).unwrap();
        throttle.succeeded(bob);
        for _ in 0..PER_USER {
            throttle.attempt("bob", None).unwrap();
        }
    }

    #[test]
    fn an_address_is_counted_across_names_and_ipv6_by_its_64() {
        let throttle = SignInThrottle::default();
        let host = |last: u16| Some(IpAddr::V6([0x2001, 0xdb8, 0, 1, 0, 0, 0, last].into()));
        for n in 0..PER_ADDRESS {
            throttle
                .attempt(&format!("user{n}"), host(u16::try_from(n).unwrap()))
                .unwrap();
        }
        throttle.attempt("another", host(999)).unwrap_err();
        throttle
            .attempt("another", Some(IpAddr::V4([192, 0, 2, 1].into())))
            .unwrap();
    }
}
