//! One node's hardware, in the editor under its row: where and when it was
//! found, memory, CPUs and the machine, its NICs (name, MAC, speed, state,
//! driver, LLDP), its bonds and its disks — read when the editor opens
//! (`GET /nodes/{id}/hardware`, never for the whole table), as core's
//! `HardwareView` words them (the CLI's `mosaic node show` prints the
//! same).

use leptos::prelude::*;
use mosaic_core::api::NodeView;
use mosaic_core::hardware::view::HardwareView;

use crate::api::{self, ApiFailure};
use crate::components::loading::Loading;
use crate::components::table::Table;

#[component]
pub(super) fn NodeHardwarePanel(id: i64, node: Memo<Option<NodeView>>) -> impl IntoView {
    let version = Memo::new(move |_| node.with(|n| n.as_ref().map_or(0, |n| n.version)));
    let fetched = LocalResource::new(move || {
        version.track();
        api::node_hardware(id)
    });
    let retry = Callback::new(move |()| fetched.refetch());
    view! {
        <section class="node-hardware" aria-label="Hardware">
            <h4>"Hardware"</h4>
            <Loading label="Reading its hardware…" retry>
                {move || Suspend::new(async move {
                    Ok::<_, ApiFailure>(match fetched.await? {
                        None => view! {
                            <p class="muted no-hardware">
                                "No hardware found yet: import its Ansible facts or Ironic inspection data (Import hardware, above the table)."
                            </p>
                        }
                        .into_any(),
                        Some(found) => view! { <HardwareTables view=HardwareView::of_node(found) /> }.into_any(),
                    })
                })}
            </Loading>
        </section>
    }
}

#[component]
fn HardwareTables(view: HardwareView) -> impl IntoView {
    let HardwareView {
        found,
        nics,
        bonds,
        disks,
        facts,
    } = view;
    view! {
        <p class="hardware-found muted">{found}</p>
        <dl class="hardware-facts">
            {facts
                .into_iter()
                .map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> })
                .collect_view()}
        </dl>
        <Table class="nics" caption="Its NICs" columns=&["NIC", "MAC", "Speed", "State", "Driver", "LLDP"]>
            {nics
                .into_iter()
                .map(|n| view! {
                    <tr>
                        <th scope="row">{n.name}</th>
                        <td><code>{n.mac}</code></td>
                        <td>{n.speed}</td>
                        <td>{n.state}</td>
                        <td>{n.driver}</td>
                        <td>{n.lldp}</td>
                    </tr>
                })
                .collect_view()}
        </Table>
        {(!bonds.is_empty()).then(|| view! {
            <ul class="bonds">{bonds.into_iter().map(|b| view! { <li>{b}</li> }).collect_view()}</ul>
        })}
        <Table class="disks" caption="Its disks" columns=&["Disk", "Size", "Model", "Kind"]>
            {disks
                .into_iter()
                .map(|d| view! {
                    <tr>
                        <th scope="row">{d.name}</th>
                        <td>{d.size}</td>
                        <td>{d.model}</td>
                        <td>{d.kind}</td>
                    </tr>
                })
                .collect_view()}
        </Table>
    }
}
