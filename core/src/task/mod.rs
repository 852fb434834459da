//! Deployment tasks (SEMANTICS §6, §9): typed task definitions, their
//! conditions, the plan of an environment, and the graph's shape.

mod condition;
mod def;
mod graph;
mod plan;

pub use condition::{Condition, Outcome, Tri, Yaql};
pub use def::{TASK_TYPES, TaskDef, deserialize_tasks};
pub use graph::{Drawing, drawing, graph_svg};
pub use plan::{
    Definitions, NodePlan, Origin, Placement, Plan, PlanError, PlanErrorKind, PlanInput, PlanNode,
    Skipped, Task, plan,
};
