//! Sign-in throttling: failed sign-ins are counted per user name and per
//! client address, and past a few within a window `POST /api/v1/session`
//! answers 429 with `Retry-After` before any password is verified.
//!
//! The counting is GCRA: a key may fail `burst` times at once, and gets one
//! more attempt back every `window / burst`, all of them after the window.
//! Every attempt takes one, before the password is verified; a success
//! gives the address its attempt back and forgets the user name's count.
//!
//! Where the counts live depends on the database (issue 43). On
//! PostgreSQL, where several replicas serve one database, they live in it
//! (`db::throttle`): one window for every replica, kept across restarts,
//! bounded in rows and pruned. On SQLite (one server) they live in memory,
//! governor's GCRA over [`Store`], a map capped at [`MAX_KEYS`] keys so that
//! a flood of made-up user names or addresses cannot grow it without bound.

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

use crate::db::{Db, DbError, Limit};

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

/// How a kind of key is counted in the database.
fn limit(burst: u32) -> Limit {
    Limit {
        period: WINDOW / burst,
        burst,
        max_keys: MAX_KEYS,
    }
}

/// The two counts of one server.
#[derive(Debug)]
pub struct SignInThrottle(Counts);

#[derive(Debug)]
enum Counts {
    /// This replica's own, in memory (SQLite).
    Memory {
        users: Keyed<[u8; 32]>,
        addresses: Keyed<IpAddr>,
    },
    /// Every replica's, in the database (PostgreSQL).
    Shared(Db),
}

impl Default for SignInThrottle {
    fn default() -> Self {
        SignInThrottle::in_memory()
    }
}

/// One sign-in attempt let through: what it took, to settle on success.
#[derive(Debug)]
pub struct Attempt {
    user: [u8; 32],
    address: Option<IpAddr>,
}

/// Why an attempt was not let through.
#[derive(Debug)]
pub enum Throttled {
    /// Too many failures: how long until an attempt is back.
    Wait(Duration),
    /// The shared counts could not be read.
    Failed(DbError),
}

impl From<DbError> for Throttled {
    fn from(e: DbError) -> Throttled {
        Throttled::Failed(e)
    }
}

const USERS: &str = "user";
const ADDRESSES: &str = "address";

impl SignInThrottle {
    /// Counts in this replica's memory.
    pub fn in_memory() -> SignInThrottle {
        SignInThrottle(Counts::Memory {
            users: Keyed::new(PER_USER),
            addresses: Keyed::new(PER_ADDRESS),
        })
    }

    /// What a server on `db` counts with: the database on PostgreSQL (one
    /// count for every replica), its memory on SQLite.
    pub fn for_database(db: &Db) -> SignInThrottle {
        if db.is_postgres() {
            SignInThrottle(Counts::Shared(db.clone()))
        } else {
            SignInThrottle::in_memory()
        }
    }

    /// Takes one attempt from `username`'s and `address`'s counts;
    /// [`Throttled::Wait`] with how long to wait when either has none left
    /// (and then takes nothing from the other). The user name is counted
    /// whether or not such a user exists, by its digest (a fixed size,
    /// whatever was sent).
    pub async fn attempt(
        &self,
        username: &str,
        address: Option<IpAddr>,
    ) -> Result<Attempt, Throttled> {
        let attempt = Attempt {
            user: Sha256::digest(username.as_bytes()).into(),
            address: address.map(address_key),
        };
        match &self.0 {
            Counts::Memory { users, addresses } => {
                if let Some(address) = attempt.address {
                    addresses.take(&address).map_err(Throttled::Wait)?;
                }
                if let Err(wait) = users.take(&attempt.user) {
                    if let Some(address) = attempt.address {
                        addresses.give_back(&address);
                    }
                    return Err(Throttled::Wait(wait));
                }
            }
            Counts::Shared(db) => {
                let (user, address) = attempt.keys();
                if let Some(address) = &address {
                    db.take_sign_in(ADDRESSES, address, &limit(PER_ADDRESS))
                        .await?
                        .map_err(Throttled::Wait)?;
                }
                if let Err(wait) = db.take_sign_in(USERS, &user, &limit(PER_USER)).await? {
                    if let Some(address) = &address {
                        db.give_back_sign_in(ADDRESSES, address, &limit(PER_ADDRESS))
                            .await?;
                    }
                    return Err(Throttled::Wait(wait));
                }
            }
        }
        Ok(attempt)
    }

    /// A successful sign-in: the user name's count starts again, and the
    /// address gets its attempt back.
    pub async fn succeeded(&self, attempt: Attempt) -> Result<(), DbError> {
        match &self.0 {
            Counts::Memory { users, addresses } => {
                users.store.forget(&attempt.user);
                if let Some(address) = attempt.address {
                    addresses.give_back(&address);
                }
            }
            Counts::Shared(db) => {
                let (user, address) = attempt.keys();
                db.forget_sign_in(USERS, &user).await?;
                if let Some(address) = &address {
                    db.give_back_sign_in(ADDRESSES, address, &limit(PER_ADDRESS))
                        .await?;
                }
            }
        }
        Ok(())
    }
}

impl Attempt {
    /// Its keys as the database stores them: the user name's digest in
    /// hex, the address as text.
    fn keys(&self) -> (String, Option<String>) {
        (hex::encode(self.user), self.address.map(|a| a.to_string()))
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

    /// The wait of a refused attempt.
    fn waited(refused: Result<Attempt, Throttled>) -> Duration {
        match refused {
            Err(Throttled::Wait(wait)) => wait,
            other => panic!("not throttled: {other:?}"),
        }
    }

    #[tokio::test]
    async fn a_flood_of_made_up_names_stays_within_the_cap() {
        let throttle = SignInThrottle::in_memory();
        for n in 0..MAX_KEYS + 5_000 {
            throttle.attempt(&format!("name{n}"), None).await.unwrap();
        }
        let Counts::Memory { users, .. } = &throttle.0 else {
            unreachable!("in memory")
        };
        assert!(users.store.len() <= MAX_KEYS);
        // The newest names are still counted.
        let newest = format!("name{}", MAX_KEYS + 4_999);
        for _ in 1..PER_USER {
            throttle.attempt(&newest, None).await.unwrap();
        }
        waited(throttle.attempt(&newest, None).await);
    }

    #[tokio::test]
    async fn a_name_fails_per_user_times_then_waits_and_a_success_resets_it() {
        let throttle = SignInThrottle::in_memory();
        for _ in 0..PER_USER {
            throttle.attempt("alice", None).await.unwrap();
        }
        let wait = waited(throttle.attempt("alice", None).await);
        assert!(wait <= WINDOW / PER_USER && wait >= Duration::from_secs(1));
        // Another name is counted apart.
        let bob = throttle.attempt("bob", None).await.unwrap();
        throttle.succeeded(bob).await.unwrap();
        for _ in 0..PER_USER {
            throttle.attempt("bob", None).await.unwrap();
        }
    }

    #[tokio::test]
    async fn an_address_is_counted_across_names_and_ipv6_by_its_64() {
        let throttle = SignInThrottle::in_memory();
        let host = |last: u16| Some(IpAddr::V6([0x2001, 0xdb8, 0, 1, 0, 0, 0, last].into()));
        for n in 0..PER_ADDRESS {
            throttle
                .attempt(&format!("user{n}"), host(u16::try_from(n).unwrap()))
                .await
                .unwrap();
        }
        waited(throttle.attempt("another", host(999)).await);
        throttle
            .attempt("another", Some(IpAddr::V4([192, 0, 2, 1].into())))
            .await
            .unwrap();
    }
}
