//! SEMANTICS §5.1 rule by rule: the effective role set over its levels,
//! node tags following it, and the changes each level may make.

use serde_json::json;

use super::*;
use crate::tag::{NodeTags, node_tags, role_tags};

fn tags(list: &[&str]) -> Vec<TagName> {
    list.iter().map(|t| TagName::new(*t).unwrap()).collect()
}

fn role(name: &str) -> RoleName {
    RoleName::new(name).unwrap()
}

fn declared() -> Vec<Role> {
    vec![
        Role::from_json(
            "controller",
            &json!({"tags": ["controller", "rabbitmq", "mysql"]}),
        )
        .unwrap(),
        Role::from_json("compute", &json!({})).unwrap(),
    ]
}

fn edit(name: &str, list: &[&str]) -> (RoleName, RoleChange) {
    (role(name), RoleChange::Edit(RoleEdit { tags: tags(list) }))
}

fn own(name: &str, list: &[&str]) -> (RoleName, RoleChange) {
    let def = RoleDef {
        label: name.to_uppercase(),
        description: String::new(),
        tags: tags(list),
        conflicts: vec![role("compute")],
        limits: Some(json!({"max": 1})),
    };
    (role(name), RoleChange::Own(def))
}

fn layer(changes: Vec<(RoleName, RoleChange)>) -> RoleLayer {
    RoleLayer(changes.into_iter().collect())
}

/// Each case: the release's and the environment's changes, then every
/// effective role with its tags, `tags_source` and where it was created.
#[test]
fn the_effective_role_set_is_declared_then_release_then_environment() {
    type Row = (&'static str, Vec<&'static str>, TagsSource, Option<Level>);
    type Case = (&'static str, RoleLayer, RoleLayer, Vec<Row>);
    let d = TagsSource::Declared;
    let cases: Vec<Case> = vec![
        (
            "as declared",
            layer(vec![]),
            layer(vec![]),
            vec![
                (
                    "controller",
                    vec!["controller", "rabbitmq", "mysql"],
                    d,
                    None,
                ),
                ("compute", vec!["compute"], d, None),
            ],
        ),
        (
            "a release edit",
            layer(vec![edit("controller", &["controller", "mysql"])]),
            layer(vec![]),
            vec![
                (
                    "controller",
                    vec!["controller", "mysql"],
                    TagsSource::Release,
                    None,
                ),
                ("compute", vec!["compute"], d, None),
            ],
        ),
        (
            "the environment's edit wins over the release's",
            layer(vec![edit("controller", &["controller", "mysql"])]),
            layer(vec![edit("controller", &["mysql"])]),
            vec![
                ("controller", vec!["mysql"], TagsSource::Environment, None),
                ("compute", vec!["compute"], d, None),
            ],
        ),
        (
            "an edit of a role nobody declares changes nothing",
            layer(vec![edit("ghost", &["mysql"])]),
            layer(vec![]),
            vec![
                (
                    "controller",
                    vec!["controller", "rabbitmq", "mysql"],
                    d,
                    None,
                ),
                ("compute", vec!["compute"], d, None),
            ],
        ),
        (
            "roles created on the release and the environment, one edited below",
            layer(vec![own("messaging", &["rabbitmq"])]),
            layer(vec![
                own("db", &["mysql"]),
                edit("messaging", &["messaging"]),
            ]),
            vec![
                (
                    "controller",
                    vec!["controller", "rabbitmq", "mysql"],
                    d,
                    None,
                ),
                ("compute", vec!["compute"], d, None),
                (
                    "messaging",
                    vec!["messaging"],
                    TagsSource::Environment,
                    Some(Level::Release),
                ),
                (
                    "db",
                    vec!["mysql"],
                    TagsSource::Environment,
                    Some(Level::Environment),
                ),
            ],
        ),
        (
            "a role created under a declared name is not added",
            layer(vec![own("compute", &["mysql"])]),
            layer(vec![]),
            vec![
                (
                    "controller",
                    vec!["controller", "rabbitmq", "mysql"],
                    d,
                    None,
                ),
                ("compute", vec!["compute"], d, None),
            ],
        ),
    ];
    for (what, release, environment, expected) in cases {
        let (roles, origins) = effective_roles(&declared(), &release, &environment);
        let got: Vec<Row> = roles
            .iter()
            .zip(&origins)
            .map(|(r, o)| {
                let name: &'static str = Box::leak(r.id.to_string().into_boxed_str());
                let list = r
                    .tags
                    .iter()
                    .map(|t| &*Box::leak(t.to_string().into_boxed_str()))
                    .collect();
                (name, list, o.tags_source, o.created)
            })
            .collect();
        assert_eq!(got, expected, "{what}");
    }
}

/// A node's tags follow the role's new set at once; its own name stays;
/// hand-made additions and removals stay as they were.
#[test]
fn node_tags_follow_the_set_and_keep_hand_changes() {
    let node = NodeTags {
        id: 1,
        roles: vec![role("controller")],
        tags_added: tags(&["custom"]),
        tags_removed: tags(&["mysql"]),
        ..NodeTags::default()
    };
    type Case = (&'static str, RoleLayer, Vec<&'static str>);
    let cases: Vec<Case> = vec![
        (
            "as declared",
            layer(vec![]),
            vec!["controller", "rabbitmq", "custom"],
        ),
        (
            "rabbitmq taken from the role",
            layer(vec![edit("controller", &["controller", "mysql"])]),
            vec!["controller", "custom"],
        ),
        (
            "a set without the role's name: the name stays",
            layer(vec![edit("controller", &["keystone"])]),
            vec!["keystone", "controller", "custom"],
        ),
        (
            "an empty set",
            layer(vec![edit("controller", &[])]),
            vec!["controller", "custom"],
        ),
    ];
    for (what, environment, expected) in cases {
        let (roles, _) = effective_roles(&declared(), RoleLayer::none(), &environment);
        assert_eq!(
            node_tags(&node, &role_tags(&roles)),
            tags(&expected),
            "{what}"
        );
    }
}

fn level<'a>(roles: &'a [Role], origins: &'a [RoleOrigin], layer: &'a RoleLayer) -> LevelView<'a> {
    LevelView {
        level: Level::Environment,
        roles,
        origins,
        layer,
    }
}

#[test]
fn changes_at_a_level_are_checked() {
    let env = layer(vec![
        own("messaging", &["rabbitmq"]),
        edit("controller", &["mysql"]),
    ]);
    let (roles, origins) = effective_roles(&declared(), RoleLayer::none(), &env);
    let view = level(&roles, &origins, &env);
    let known = |t: &TagName| t.as_str() != "nope";

    let set = view
        .set_tags("compute", tags(&["compute", "mysql"]), known)
        .unwrap();
    assert_eq!(
        set.0[&role("compute")],
        edit("compute", &["compute", "mysql"]).1
    );
    let set = view.set_tags("messaging", tags(&["mysql"]), known).unwrap();
    assert!(matches!(&set.0[&role("messaging")], RoleChange::Own(d) if d.tags == tags(&["mysql"])));
    assert_eq!(
        view.set_tags("compute", tags(&["nope"]), known),
        Err(RoleRefusal::UnknownTags(tags(&["nope"])))
    );
    assert_eq!(
        view.set_tags("ghost", tags(&[]), known),
        Err(RoleRefusal::NotFound("ghost".into()))
    );

    let def = |t: &[&str]| RoleDef {
        label: "X".into(),
        description: String::new(),
        tags: tags(t),
        conflicts: Vec::new(),
        limits: None,
    };
    let (id, created) = view.create("db", def(&["mysql"]), known).unwrap();
    assert!(created.0.contains_key(&id));
    assert_eq!(
        view.create("Bad Name", def(&[]), known),
        Err(RoleRefusal::BadName("Bad Name".into()))
    );
    assert_eq!(
        view.create("compute", def(&[]), known),
        Err(RoleRefusal::Exists(role("compute")))
    );
    assert_eq!(
        view.create("messaging", def(&[]), known),
        Err(RoleRefusal::Exists(role("messaging")))
    );
    assert_eq!(
        view.create("db", def(&["nope"]), known),
        Err(RoleRefusal::UnknownTags(tags(&["nope"])))
    );
    let bad_limits = RoleDef {
        limits: Some(json!({"max": []})),
        ..def(&[])
    };
    assert!(matches!(
        view.create("db", bad_limits, known),
        Err(RoleRefusal::Invalid(_))
    ));

    let reset = view.reset("controller", vec!["n1".into()]).unwrap();
    assert!(
        !reset.0.contains_key(&role("controller")),
        "an edit is undone, nodes or not"
    );
    assert!(
        !view
            .reset("messaging", vec![])
            .unwrap()
            .0
            .contains_key(&role("messaging"))
    );
    assert_eq!(
        view.reset("messaging", vec!["n1".into()]),
        Err(RoleRefusal::Held {
            name: role("messaging"),
            nodes: vec!["n1".into()]
        })
    );
    assert!(matches!(
        view.reset("compute", vec![]),
        Err(RoleRefusal::Declared { .. })
    ));
    assert_eq!(
        view.reset("ghost", vec![]),
        Err(RoleRefusal::NotFound("ghost".into()))
    );
}

#[test]
fn changes_read_and_write_as_edits_or_roles_of_ones_own() {
    let written = json!({
        "controller": {"tags": ["mysql"]},
        "messaging": {"label": "Messaging", "tags": ["rabbitmq"], "conflicts": ["compute"], "limits": {"max": 1}},
    });
    let read: RoleLayer = serde_json::from_value(written.clone()).unwrap();
    assert!(matches!(read.0[&role("controller")], RoleChange::Edit(_)));
    assert!(matches!(read.0[&role("messaging")], RoleChange::Own(_)));
    assert_eq!(serde_json::to_value(&read).unwrap(), written);

    for (what, bad) in [
        (
            "an edit with more than tags",
            json!({"x": {"tags": [], "description": "d"}}),
        ),
        (
            "unreadable limits",
            json!({"x": {"label": "X", "tags": [], "limits": "max"}}),
        ),
        ("a bad tag", json!({"x": {"tags": ["a b"]}})),
        ("a bad role name", json!({"X": {"tags": []}})),
    ] {
        assert!(serde_json::from_value::<RoleLayer>(bad).is_err(), "{what}");
    }
}

#[test]
fn the_roles_section_says_where_a_set_comes_from_what_undoing_does_and_what_a_change_affects() {
    let view = |tags_source, created| RoleView {
        id: role("r"),
        name: "R".into(),
        description: String::new(),
        tags: Vec::new(),
        unavailable: None,
        plugin: None,
        tags_source,
        created,
        nodes: 0,
    };
    let (env, rel) = (Level::Environment, Level::Release);
    type Case = (TagsSource, Option<Level>, Level, Option<Undo>, &'static str);
    let cases: Vec<Case> = vec![
        (TagsSource::Declared, None, env, None, "as declared"),
        (
            TagsSource::Release,
            None,
            env,
            None,
            "changed on the release",
        ),
        (
            TagsSource::Release,
            None,
            rel,
            Some(Undo::Reset),
            "changed on the release",
        ),
        (
            TagsSource::Environment,
            None,
            env,
            Some(Undo::Reset),
            "changed here",
        ),
        (
            TagsSource::Environment,
            Some(env),
            env,
            Some(Undo::Delete),
            "created here",
        ),
        (
            TagsSource::Release,
            Some(rel),
            rel,
            Some(Undo::Delete),
            "created on the release",
        ),
        (
            TagsSource::Environment,
            Some(rel),
            env,
            Some(Undo::Reset),
            "changed here",
        ),
    ];
    for (source, created, level, undo, label) in cases {
        let v = view(source, created);
        assert_eq!(
            Undo::of(&v, level),
            undo,
            "{source:?} {created:?} at {level:?}"
        );
        assert_eq!(tags_source_label(&v), label, "{source:?} {created:?}");
    }
    let s = |l: &[&str]| l.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    assert_eq!(change_preview(&s(&["a", "b"]), &s(&["b", "a"]), 3), None);
    assert_eq!(
        change_preview(&s(&["controller", "rabbitmq"]), &s(&["controller"]), 3).as_deref(),
        Some("Affects 3 nodes: removes rabbitmq.")
    );
    assert_eq!(
        change_preview(&s(&["a"]), &s(&["b"]), 1).as_deref(),
        Some("Affects 1 node: adds b; removes a.")
    );
}
