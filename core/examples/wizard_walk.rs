//! The wizard's work per click, natively, on the synthetic registry of
//! 2,000 components: a seeded walk through the four panes (15, 20, 20 and
//! 15 toggles, as `tests/e2e/wizard_latency.rs` clicks), each click timed
//! part by part as the app does it — the toggle, what keeps the operator
//! on each step, the selection's violations, the states of the pane shown,
//! and the reasons and repairs (blocked) or advice (the others) of its
//! first 80 rows, which a pane just shown works out with its evaluation.
//!
//! ```sh
//! cargo run --release -p mosaic-core --example wizard_walk [REPEATS]
//! ```
//!
//! Each click is repeated REPEATS times (default 5) and the mean per click
//! printed per pane, in milliseconds. Figures in docs/benchmarks.md.

use mosaic_core::component::{
    DEFAULT_REQUIRED_TYPES, Engine, Registry, Source, State, synthetic, validate_selection,
};
use mosaic_core::wizard::{self, Pane};
use std::time::{Duration, Instant};

/// The parts of a click, in the order the app does them.
const PARTS: [&str; 6] = [
    "toggle",
    "leave",
    "violations",
    "states",
    "blocked",
    "advice",
];

/// The rows a pane just shown works out with its evaluation (the app's
/// `PANE_TOP`).
const TOP: usize = 80;

fn main() {
    let repeats: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("REPEATS is a number"))
        .unwrap_or(5);
    let registry = synthetic::registry(2000, 42);
    let registry = Registry::new([(Source("synthetic".into()), registry)]).expect("unique names");
    let engine = Engine::new(registry, &DEFAULT_REQUIRED_TYPES);
    let mut selection = wizard::defaults(engine.registry(), engine.layout());
    let mut rng = synthetic::Rng::new(7);
    for (pane, clicks) in Pane::ALL.into_iter().zip([15, 20, 20, 15]) {
        selection = wizard::arrive(&engine, &selection, pane).selection;
        let mut spent = [Duration::ZERO; PARTS.len()];
        for _ in 0..clicks {
            let i = pick(&engine, &selection, pane, &mut rng);
            for _ in 0..repeats {
                click(&engine, &selection, pane, i, &mut spent);
            }
            selection = wizard::toggle(&engine, &selection, i).selection;
        }
        let line: Vec<String> = PARTS
            .iter()
            .zip(spent)
            .map(|(part, d)| format!("{part} {:.2}", ms(d) / f64::from(clicks * repeats)))
            .collect();
        println!("{pane:?}: {} ms per click", line.join(", "));
    }
}

/// A selected or available option of `pane`, chosen by the generator.
fn pick(engine: &Engine, selection: &[bool], pane: Pane, rng: &mut synthetic::Rng) -> usize {
    let own = own(engine, pane);
    let states = engine.evaluate_pane_states(&names(engine, selection), pane.component_type());
    let live: Vec<usize> = own
        .iter()
        .zip(&states.components)
        .filter(|(_, r)| matches!(r.state, State::Selected | State::Available))
        .map(|(i, _)| *i)
        .collect();
    live[rng.below(live.len())]
}

/// One toggle of option `i`, each part's time added to `spent`.
fn click(engine: &Engine, selection: &[bool], pane: Pane, i: usize, spent: &mut [Duration]) {
    let kind = pane.component_type();
    let mut lap = Lap(Instant::now(), spent, 0);
    let change = wizard::toggle(engine, selection, i);
    lap.next();
    for step in Pane::ALL {
        std::hint::black_box(wizard::leave_problem(engine, &change.selection, step));
    }
    lap.next();
    let names = names(engine, &change.selection);
    std::hint::black_box(validate_selection(
        engine.registry(),
        engine.required_types(),
        &names,
    ));
    lap.next();
    let states = engine.evaluate_pane_states(&names, kind);
    lap.next();
    let rows: Vec<(usize, State)> = own(engine, pane)
        .into_iter()
        .zip(states.components.iter().map(|r| r.state))
        .take(TOP)
        .collect();
    let named = |wanted: &dyn Fn(State) -> bool| -> Vec<&str> {
        let of = |i: usize| engine.registry().get(i).name.as_str();
        rows.iter()
            .filter(|r| wanted(r.1))
            .map(|r| of(r.0))
            .collect()
    };
    std::hint::black_box(engine.blocked_in_pane(&names, kind, &named(&|s| s == State::Blocked)));
    lap.next();
    std::hint::black_box(engine.advice(&names, &named(&|s| !s.unavailable())));
    lap.next();
}

/// The components of `pane`, in registry order (its evaluation's order).
fn own(engine: &Engine, pane: Pane) -> Vec<usize> {
    let registry = engine.registry();
    (0..registry.len())
        .filter(|&i| registry.get(i).kind() == pane.component_type())
        .collect()
}

fn names(engine: &Engine, selection: &[bool]) -> Vec<String> {
    let registry = engine.registry();
    (0..registry.len())
        .filter(|&i| selection[i])
        .map(|i| registry.get(i).name.to_string())
        .collect()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A stopwatch that adds each lap to the next part's total.
struct Lap<'a>(Instant, &'a mut [Duration], usize);

impl Lap<'_> {
    fn next(&mut self) {
        let now = Instant::now();
        self.1[self.2] += now - self.0;
        (self.0, self.2) = (now, self.2 + 1);
    }
}
