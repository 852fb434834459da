//! Deployment tasks (SEMANTICS §6, §9): typed task definitions, their
//! relations and conditions, the plan of an environment, and the graph's
//! shape.

mod condition;
mod def;
mod graph;
mod order;
mod pairs;
mod plan;
mod planned;
mod relation;

pub use condition::{Condition, Outcome, Tri, Yaql};
pub use def::{TASK_TYPES, TaskDef, deserialize_tasks};
pub use graph::{Drawing, drawing, graph_svg};
pub use plan::{Definitions, Placement, PlanInput, PlanNode, plan};
pub use planned::{
    CrossWait, NodePlan, NodeTask, Origin, Plan, PlanError, PlanErrorKind, Skipped, Task,
    Unresolved, WarningKind,
};
pub use relation::{Policy, Relation, Role, Scope, TaskName, relations};

#[cfg(test)]
mod tests;
