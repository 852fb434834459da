//! Relations resolved against the tasks of one plan (SEMANTICS §6.1):
//! each entry to the tasks it names (an exact id, or every id a pattern is
//! found in), each cross-node `role` to a row of the plan's placement, and
//! each group's `tasks:` to the tasks that also run on the group's nodes.
//! Entries that name nothing are warnings; unknown ids in `tasks:` errors.

use std::collections::HashMap;

use super::order::{Look, Pair, PairScope};
use super::planned::{PlanError, PlanErrorKind, Task, Unresolved, WarningKind};
use super::relation::{Relation, Role, Scope, TaskName};
use crate::tag::{MatcherId, Matchers};

/// What relations resolve to.
#[derive(Debug, Default)]
pub(super) struct Resolved {
    pub pairs: Vec<Pair>,
    /// The selectors of cross-node `role` entries: placement rows
    /// `first_role_row + i`.
    pub role_rows: Vec<Vec<MatcherId>>,
    /// Per task: the groups whose `tasks:` list it.
    pub groups_of: Vec<Vec<usize>>,
    pub unresolved: Vec<Unresolved>,
    pub errors: Vec<PlanError>,
}

/// Resolves every task's relations and every group's `tasks:`.
pub(super) fn resolve(
    tasks: &[Task<'_>],
    matchers: &mut Matchers,
    first_role_row: usize,
) -> Resolved {
    let mut r = Resolver {
        index: tasks
            .iter()
            .enumerate()
            .map(|(i, t)| (t.def.id.as_str(), i))
            .collect(),
        tasks,
        patterns: HashMap::new(),
        roles: HashMap::new(),
        first_role_row,
        out: Resolved {
            groups_of: vec![Vec::new(); tasks.len()],
            ..Resolved::default()
        },
    };
    for (t, task) in tasks.iter().enumerate() {
        for relation in &task.def.relations {
            r.relation(t, relation, matchers);
        }
        r.group(t, task);
    }
    r.out
}

struct Resolver<'t, 'a> {
    tasks: &'t [Task<'a>],
    index: HashMap<&'t str, usize>,
    /// The tasks each distinct pattern names.
    patterns: HashMap<String, Vec<usize>>,
    /// Each distinct `role` list's look.
    roles: HashMap<Vec<String>, Option<Look>>,
    first_role_row: usize,
    out: Resolved,
}

impl Resolver<'_, '_> {
    fn named(&mut self, name: &TaskName) -> Vec<usize> {
        match name {
            TaskName::Exact(id) => self.index.get(id.as_str()).copied().into_iter().collect(),
            TaskName::Pattern(re) => {
                let tasks = self.tasks;
                self.patterns
                    .entry(re.as_str().to_owned())
                    .or_insert_with(|| {
                        (0..tasks.len())
                            .filter(|&i| re.is_match(tasks[i].def.id.as_str()))
                            .collect()
                    })
                    .clone()
            }
        }
    }

    fn relation(&mut self, t: usize, relation: &Relation, matchers: &mut Matchers) {
        let same_node = relation.scope == Scope::SameNode;
        // Never a task to itself on the same node.
        let named: Vec<usize> = self
            .named(&relation.name)
            .into_iter()
            .filter(|&n| n != t || !same_node)
            .collect();
        if named.is_empty() {
            self.out.unresolved.push(Unresolved {
                kind: WarningKind::UnresolvedDependency,
                task: self.tasks[t].def.id.clone(),
                relation: relation.key.to_owned(),
                entry: relation.name.as_written(),
            });
            return;
        }
        let Some(scope) = self.scope(t, relation, matchers) else {
            return;
        };
        for n in named {
            let (before, after) = if relation.named_first { (n, t) } else { (t, n) };
            self.out.pairs.push(Pair {
                before,
                after,
                scope: scope.clone(),
            });
        }
    }

    /// The pair scope of an entry; `None` when its `role` does not compile
    /// (an error, and the entry is ignored).
    fn scope(
        &mut self,
        t: usize,
        relation: &Relation,
        matchers: &mut Matchers,
    ) -> Option<PairScope> {
        let Scope::Cross { role, policy } = &relation.scope else {
            return Some(PairScope::SameNode);
        };
        let look = match role {
            Role::Any => Look::Any,
            Role::SameNode => Look::SameNode,
            Role::Tags(entries) => self.role_look(t, relation, entries, matchers)?,
        };
        Some(PairScope::Cross {
            look,
            policy: *policy,
            named_first: relation.named_first,
        })
    }

    fn role_look(
        &mut self,
        t: usize,
        relation: &Relation,
        entries: &[String],
        matchers: &mut Matchers,
    ) -> Option<Look> {
        if let Some(known) = self.roles.get(entries) {
            return known.clone();
        }
        let look = match matchers.selector(entries) {
            Ok(ids) => {
                self.out.role_rows.push(ids);
                Some(Look::Row(
                    self.first_role_row + self.out.role_rows.len() - 1,
                ))
            }
            Err(e) => {
                let id = &self.tasks[t].def.id;
                let mut error = PlanError::new(
                    PlanErrorKind::BadSelector,
                    format!(
                        "task '{id}': {}: role {e}; the entry is ignored",
                        relation.key
                    ),
                );
                error.task = Some(id.clone());
                self.out.errors.push(error);
                None
            }
        };
        self.roles.insert(entries.to_vec(), look.clone());
        look
    }

    /// A group's `tasks:`: each listed task also runs on the group's nodes.
    fn group(&mut self, g: usize, task: &Task<'_>) {
        for id in &task.def.group_tasks {
            match self.index.get(id.as_str()) {
                Some(&listed) => self.out.groups_of[listed].push(g),
                None => {
                    let mut error = PlanError::new(
                        PlanErrorKind::UnknownDependency,
                        format!(
                            "group '{}' lists task '{id}' in its tasks, which no release, plugin or environment defines",
                            task.def.id
                        ),
                    );
                    error.task = Some(task.def.id.clone());
                    self.out.errors.push(error);
                }
            }
        }
    }
}
