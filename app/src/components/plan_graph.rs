use leptos::prelude::*;
use mosaic_core::name::TaskId;
use mosaic_core::task::drawing;

const WIDTH: usize = 170;
const BOX: usize = 150;
const HEIGHT: usize = 44;
const BOX_HEIGHT: usize = 22;

/// Boxes for `tasks` laid out by `drawing`, top to bottom: a task's depth
/// (its column in the drawing) is its row; tasks of one depth sit side by
/// side. (x, y) per task.
pub fn positions(depths: &[usize]) -> Vec<(usize, usize)> {
    let mut placed = vec![0usize; depths.iter().max().map_or(0, |m| m + 1)];
    depths
        .iter()
        .map(|&d| {
            let slot = placed[d];
            placed[d] += 1;
            (10 + slot * WIDTH, 10 + d * HEIGHT)
        })
        .collect()
}

fn short(name: &str) -> String {
    if name.chars().count() <= 22 {
        name.to_owned()
    } else {
        format!("{}…", name.chars().take(21).collect::<String>())
    }
}

/// One node's tasks as a graph: a row per dependency depth, arrows from
/// each task to the tasks that wait for it.
#[component]
pub fn PlanGraph(tasks: Vec<TaskId>, edges: Vec<(TaskId, TaskId)>) -> impl IntoView {
    let layout = drawing(&tasks, &edges);
    let at = positions(&layout.columns);
    let width = at.iter().map(|p| p.0 + BOX + 10).max().unwrap_or(10);
    let height = at.iter().map(|p| p.1 + BOX_HEIGHT + 10).max().unwrap_or(10);
    let links = layout
        .links
        .iter()
        .map(|&(from, to)| {
            let (x1, y1) = (at[from].0 + BOX / 2, at[from].1 + BOX_HEIGHT);
            let (x2, y2) = (at[to].0 + BOX / 2, at[to].1);
            view! { <line class="link" x1=x1 y1=y1 x2=x2 y2=y2 marker-end="url(#arrow)" /> }
        })
        .collect_view();
    let boxes = tasks
        .iter()
        .zip(&at)
        .map(|(task, &(x, y))| {
            view! {
                <g class="task" data-task=task.to_string()>
                    <title>{task.to_string()}</title>
                    <rect x=x y=y width=BOX height=BOX_HEIGHT rx="4" />
                    <text x=x + 6 y=y + 15>{short(task.as_str())}</text>
                </g>
            }
        })
        .collect_view();
    view! {
        <div class="graph-scroll" tabindex="0" role="region" aria-label="Task graph">
        <svg
            class="plan-graph"
            width=width
            height=height
            viewBox=format!("0 0 {width} {height}")
            role="img"
            aria-label="The node's tasks and their dependencies"
        >
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" />
                </marker>
            </defs>
            {links}
            {boxes}
        </svg>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::positions;

    #[wasm_bindgen_test]
    fn depths_are_rows_and_siblings_sit_side_by_side() {
        assert_eq!(
            positions(&[0, 1, 1, 2]),
            [(10, 10), (10, 54), (180, 54), (10, 98)]
        );
    }
}
