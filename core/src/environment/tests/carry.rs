//! Carrying the changes made on a release record onto the next version's
//! (issue 43): each kind of change, carried or not and why.

use super::*;
use crate::role_layer::{RoleChange, RoleDef, RoleEdit, RoleLayer};

fn tags(list: &[&str]) -> Vec<TagName> {
    list.iter().map(|t| TagName::new(*t).unwrap()).collect()
}

fn edit(list: &[&str]) -> RoleChange {
    RoleChange::Edit(RoleEdit { tags: tags(list) })
}

fn own(list: &[&str]) -> RoleChange {
    RoleChange::Own(RoleDef {
        label: "Own".to_owned(),
        description: String::new(),
        tags: tags(list),
        conflicts: Vec::new(),
        limits: None,
    })
}

fn layer(changes: &[(&str, RoleChange)]) -> RoleLayer {
    RoleLayer(
        changes
            .iter()
            .map(|(name, change)| (RoleName::new(*name).unwrap(), change.clone()))
            .collect(),
    )
}

fn meta(list: &[(&str, bool)]) -> crate::tag::TagsMetadata {
    list.iter()
        .map(|(name, has_primary)| {
            let meta = TagMeta {
                has_primary: *has_primary,
                instances: None,
            };
            (TagName::new(*name).unwrap(), meta)
        })
        .collect()
}

#[test]
fn each_change_is_carried_where_it_still_fits_and_listed_with_why_not() {
    let f = fixture();
    let foundation = Foundation::new(&f.release, &[]).unwrap();
    let target = Target {
        release: &f.release,
        plugins: &[],
        foundation: &foundation,
    };
    let from = ReleaseChanges {
        tags: meta(&[
            ("rack", false),
            ("database", false),
            ("shelf", false),
            ("same", true),
        ]),
        roles: layer(&[
            ("controller", edit(&["controller", "rack"])),
            ("cinder", edit(&["cinder"])),
            ("ceph-osd", own(&["ceph-osd"])),
            ("gone", edit(&["controller"])),
            ("queue", own(&["nope"])),
            ("mine", edit(&["controller"])),
        ]),
    };
    let to = ReleaseChanges {
        tags: meta(&[("shelf", true), ("same", true)]),
        roles: layer(&[
            ("cinder", edit(&["cinder", "database"])),
            ("mine", own(&["controller"])),
        ]),
    };
    let carried = carry(&from, &to, target);
    let done = |kind, name: &str| CarriedChange {
        kind,
        name: name.to_owned(),
    };
    let not = |kind, name: &str, reason, unknown: &[&str]| NotCarried {
        kind,
        name: name.to_owned(),
        reason,
        tags: tags(unknown),
    };
    use ChangeKind::{Role, Tag};
    use NotCarriedReason::{Changed, Declared, RoleGone, TagsGone};
    assert_eq!(
        carried.report.carried,
        [
            done(Tag, "rack"),
            done(Tag, "same"),
            done(Role, "controller")
        ]
    );
    assert_eq!(
        carried.report.not_carried,
        [
            not(Tag, "database", Declared, &[]),
            not(Tag, "shelf", Changed, &[]),
            not(Role, "ceph-osd", Declared, &[]),
            not(Role, "cinder", Changed, &[]),
            not(Role, "gone", RoleGone, &[]),
            not(Role, "mine", Changed, &[]),
            not(Role, "queue", TagsGone, &["nope"]),
        ]
    );
    // The new record keeps its own, and gains what was carried.
    assert_eq!(
        carried.changes.tags,
        meta(&[("rack", false), ("shelf", true), ("same", true)])
    );
    assert_eq!(
        carried.changes.roles,
        layer(&[
            ("cinder", edit(&["cinder", "database"])),
            ("controller", edit(&["controller", "rack"])),
            ("mine", own(&["controller"])),
        ])
    );
    assert_eq!(
        carried.report.not_carried[6].to_string(),
        "the change of role 'queue' is not carried: the new version does not know the tag 'nope'"
    );
    // The same record (a plugin upgrade): everything that still fits is
    // carried as it is, and nothing is added.
    let same = carry(&to, &to, target);
    assert_eq!(same.changes, to);
    assert!(same.report.not_carried.is_empty(), "{:?}", same.report);
}
