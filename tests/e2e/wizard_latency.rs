//! How fast the wizard answers a click with a large release
//! (docs/benchmarks.md): the 2,000-component synthetic registry
//! (`component::synthetic::registry(2000, 42)`, about 10,000 relations) is
//! written into a release plugin made by `mosaic plugin create --release`,
//! uploaded on the onboarding screen once the bundled release is
//! uninstalled, and the wizard is walked through its four component panes
//! in headless Chromium.
//!
//! Each click is timed inside the page with `performance.now()`: a script
//! takes `t0`, clicks the element (an option's input, a Fix button, Next),
//! and a `MutationObserver` on the wizard notes the time of every batch of
//! DOM changes that follows. Once nothing has changed for 100 ms, the click
//! is over; its time is that of the last change minus `t0` — the click's
//! handler (the core's `toggle`, `fix` or `arrive`), the evaluation of the
//! pane and every DOM update it causes. The same script also notes when a
//! task queued right after the click has forced style and layout of the
//! updated page ("laid out"), which adds the browser's own work but not
//! painting. A measurement, not a check: run it on purpose, against an
//! optimized server and app,
//!
//!     cargo build --release -p mosaic-server && make app
//!     MOSAIC_BIN=$PWD/target/release/mosaic cargo test -p mosaic-e2e --test e2e -- --ignored --nocapture wizard_latency

use std::process::Command;
use std::time::Duration;

use fantoccini::wd::TimeoutConfiguration;
use fantoccini::{Client, Locator};
use mosaic_core::component::synthetic;
use serde_json::{Value, json};

use super::{Who, choose_file, click, open_page_as, tarball, text_of, uninstall};

/// Loading and first rendering 2,000 options takes longer than `WAIT`.
const LOAD: Duration = Duration::from_secs(120);

/// The components file of a release plugin: JSON, which is YAML.
fn synthetic_release(dir: &std::path::Path) -> std::path::PathBuf {
    let bin = mosaic_e2e::mosaic_bin();
    let run = |args: &[&str]| {
        let out = Command::new(&bin).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "mosaic {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&[
        "plugin",
        "create",
        "synthetic",
        "--release",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    let package = dir.join("synthetic");
    let components = serde_json::to_string_pretty(&synthetic::registry(2000, 42)).unwrap();
    std::fs::write(package.join("metadata/components.yaml"), components).unwrap();
    run(&["plugin", "validate", package.to_str().unwrap()]);
    package
}

/// Clicks `css` and times it (see the module's doc): milliseconds to the
/// last DOM change and to the layout after it, how many changes, and which
/// options' states changed.
const MEASURE: &str = r#"
const [css, done] = arguments;
const root = document.querySelector("[data-page='wizard']");
const target = document.querySelector(css);
if (!target) { done({error: 'no ' + css}); return; }
let last = null, count = 0, layout = null;
const changed = new Set();
const observer = new MutationObserver(records => {
  last = performance.now();
  count += records.length;
  for (const r of records) {
    if (r.type === 'attributes' && r.attributeName === 'data-state') changed.add(r.target.dataset.component);
  }
});
observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
const channel = new MessageChannel();
channel.port1.onmessage = () => { root.getBoundingClientRect(); layout = performance.now(); };
const t0 = performance.now();
target.click();
channel.port2.postMessage(null);
const settle = () => {
  const now = performance.now();
  if ((last !== null && now - last >= 100) || now - t0 > 10000) {
    observer.disconnect();
    done({dom: last === null ? null : last - t0, layout: layout - t0, mutations: count, changed: [...changed]});
  } else {
    setTimeout(settle, 20);
  }
};
setTimeout(settle, 20);
"#;

/// One timed click.
#[derive(Debug)]
struct Timing {
    /// The pane clicked on.
    pane: &'static str,
    what: &'static str,
    dom: f64,
    layout: f64,
    /// Options other than the clicked one whose state changed.
    others: usize,
    /// DOM changes the click made (mutation records).
    mutations: u64,
}

async fn measure(
    c: &Client,
    (pane, what): (&'static str, &'static str),
    css: &str,
    clicked: Option<&str>,
) -> Timing {
    let answer = c.execute_async(MEASURE, vec![json!(css)]).await.unwrap();
    let dom = answer["dom"]
        .as_f64()
        .unwrap_or_else(|| panic!("{css}: nothing changed ({answer})"));
    let others = answer["changed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|name| name.as_str() != clicked)
        .count();
    let timing = Timing {
        pane,
        what,
        dom,
        layout: answer["layout"].as_f64().unwrap(),
        others,
        mutations: answer["mutations"].as_u64().unwrap_or_default(),
    };
    println!(
        "wizard_latency: {:19} {:6} dom {:6.1} ms, laid out {:6.1} ms, {} other options changed, {} DOM changes",
        timing.pane, timing.what, timing.dom, timing.layout, timing.others, timing.mutations
    );
    timing
}

/// The options of pane `pane` as `[name, state, clickable, fixable]`:
/// clickable when its input is enabled and a click changes it (not a
/// checked radio button), fixable when it shows a Fix.
async fn options(c: &Client, pane: &str) -> Vec<Value> {
    let script = r#"
        const [pane] = arguments;
        return [...document.querySelectorAll(`[data-pane='${pane}'] .option`)].map(o => {
          const input = o.querySelector('input');
          const fix = o.querySelector('button.fix');
          return [o.dataset.component, o.dataset.state,
                  !input.disabled && !(input.type === 'radio' && input.checked),
                  !!fix && !fix.classList.contains('hidden')];
        });"#;
    let answer = c.execute(script, vec![json!(pane)]).await.unwrap();
    answer.as_array().unwrap().clone()
}

/// xorshift64: the same clicks on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Clicks on pane `pane`: a Fix when one is shown and the dice say so,
/// otherwise an option's input (ticking or unticking it).
async fn click_on_pane(
    c: &Client,
    pane: &'static str,
    clicks: usize,
    rng: &mut Rng,
    out: &mut Vec<Timing>,
) {
    for _ in 0..clicks {
        let list = options(c, pane).await;
        let name = |o: &Value| o[0].as_str().unwrap().to_owned();
        let fixable: Vec<String> = list
            .iter()
            .filter(|o| o[3] == json!(true))
            .map(name)
            .collect();
        let clickable: Vec<String> = list
            .iter()
            .filter(|o| o[2] == json!(true))
            .map(name)
            .collect();
        let timing = if !fixable.is_empty() && rng.below(3) == 0 {
            let pick = &fixable[rng.below(fixable.len())];
            let css = format!("[data-component='{pick}'] button.fix");
            measure(c, (pane, "fix"), &css, Some(pick)).await
        } else {
            let pick = &clickable[rng.below(clickable.len())];
            let css = format!("[data-component='{pick}'] input");
            measure(c, (pane, "toggle"), &css, Some(pick)).await
        };
        out.push(timing);
    }
}

/// Goes to the next step with a timed click on Next, first clicking on
/// the pane until nothing keeps the operator there.
async fn next(c: &Client, pane: &'static str, rng: &mut Rng, out: &mut Vec<Timing>) {
    for _ in 0..50 {
        let enabled = c
            .find(Locator::Css("#next"))
            .await
            .unwrap()
            .is_enabled()
            .await
            .unwrap();
        if enabled {
            out.push(measure(c, (pane, "next"), "#next", None).await);
            return;
        }
        click_on_pane(c, pane, 1, rng, out).await;
    }
    panic!(
        "cannot leave {pane}: {}",
        text_of(c, ".actions .hint").await
    );
}

/// The `p`-th percentile (nearest rank) of sorted `values`.
fn percentile(values: &[f64], p: f64) -> f64 {
    let rank = ((p / 100.0) * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

fn summary(label: &str, timings: &[&Timing], of: fn(&Timing) -> f64) -> String {
    let mut values: Vec<f64> = timings.iter().map(|t| of(t)).collect();
    values.sort_by(f64::total_cmp);
    format!(
        "{label}: {} clicks, median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        values.len(),
        percentile(&values, 50.0),
        percentile(&values, 95.0),
        values[values.len() - 1],
    )
}

#[tokio::test]
#[ignore = "a measurement: run with --ignored (see the module's doc)"]
async fn wizard_latency_with_two_thousand_components() {
    let dir = tempfile::tempdir().unwrap();
    let package = synthetic_release(dir.path());
    let (_server, browser) = open_page_as("/plugins", Who::Admin).await;
    let c = &browser.client;
    uninstall(c, "openstack").await;
    click(c, ".nav a[href='/']").await;
    text_of(c, "[data-page='onboarding']").await;
    let (_keep, archive) = tarball(&package);
    let loading = std::time::Instant::now();
    choose_file(c, "[data-page='onboarding'] input.plugin-upload", &archive).await;
    let field = c
        .wait()
        .at_most(LOAD)
        .for_element(Locator::Id("environment-name"))
        .await
        .expect("the wizard after the upload");
    field.send_keys("synthetic").await.unwrap();
    c.wait()
        .at_most(LOAD)
        .for_element(Locator::Css("[data-pane='compute'] .option"))
        .await
        .expect("the synthetic release's options");
    let rows = c.find_all(Locator::Css(".option")).await.unwrap().len();
    assert_eq!(rows, 2000);
    println!(
        "wizard_latency: the wizard with {rows} options after {:?}",
        loading.elapsed()
    );
    // A slow click must be measured, not cut short.
    let long = TimeoutConfiguration::new(Some(Duration::from_secs(600)), None, None);
    c.update_timeouts(long).await.unwrap();

    let mut rng = Rng(42);
    let mut timings = Vec::new();
    click(c, "#next").await;
    let panes = [
        ("compute", 15),
        ("networking", 20),
        ("storage", 20),
        ("additional_services", 15),
    ];
    for (n, (pane, clicks)) in panes.into_iter().enumerate() {
        click_on_pane(c, pane, clicks, &mut rng, &mut timings).await;
        if n + 1 < panes.len() {
            next(c, pane, &mut rng, &mut timings).await;
        }
    }
    let all: Vec<&Timing> = timings.iter().collect();
    assert!(all.len() >= 50, "{} clicks", all.len());
    println!(
        "wizard_latency: {}",
        summary("click to DOM updated", &all, |t| t.dom)
    );
    println!(
        "wizard_latency: {}",
        summary("click to laid out", &all, |t| t.layout)
    );
    for what in ["toggle", "fix", "next"] {
        let some: Vec<&Timing> = timings.iter().filter(|t| t.what == what).collect();
        if !some.is_empty() {
            println!("wizard_latency: {}", summary(what, &some, |t| t.dom));
        }
    }
    for (pane, _) in panes {
        let some: Vec<&Timing> = timings
            .iter()
            .filter(|t| t.pane == pane && t.what != "next")
            .collect();
        println!("wizard_latency: {}", summary(pane, &some, |t| t.dom));
    }
    let changing = timings.iter().filter(|t| t.others > 0).count();
    println!(
        "wizard_latency: {changing} of {} clicks changed the state of other options",
        timings.len()
    );
    browser.close().await;
}
