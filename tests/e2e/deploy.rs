//! The Deploy tab (issue 40, part 6): an environment handed to
//! kolla-ansible lists each node with the groups placing it and the
//! services they bring, and its archive downloads as a gzip'd tar holding
//! the inventory and `globals.yml`; an environment kolla-ansible cannot
//! take shows every problem with a link to the tab that fixes it.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::components::api;
use super::{click, create_environment, eventually, save_screenshot, text_of};

/// Adds node `name` with `roles` to environment 1.
async fn node(c: &Client, name: &str, roles: &[&str]) {
    let ports = json!({"interfaces": [{"name": "eth0"}, {"name": "eth1"}, {"name": "eth2"}]});
    api(
        c,
        "POST",
        "/api/v1/clusters/1/nodes",
        json!({"name": name, "roles": roles, "interfaces": ports}),
    )
    .await;
}

/// What the browser downloads from `url`: its status, `Content-Disposition`
/// and bytes.
async fn download(c: &Client, url: &str) -> (u64, String, Vec<u8>) {
    let script = "const [url, done] = arguments;
        fetch(url)
          .then(async r => done({status: r.status,
            disposition: r.headers.get('content-disposition') || '',
            bytes: Array.from(new Uint8Array(await r.arrayBuffer()))}))
          .catch(e => done({status: 0, disposition: String(e), bytes: []}));";
    let answer = c.execute_async(script, vec![json!(url)]).await.unwrap();
    let bytes = answer["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    let disposition = answer["disposition"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (answer["status"].as_u64().unwrap(), disposition, bytes)
}

/// The entries of a `.tar.gz`, as `tar` lists them.
fn entries(archive: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("export.tar.gz");
    std::fs::write(&file, archive).unwrap();
    let out = std::process::Command::new("tar")
        .arg("tzf")
        .arg(&file)
        .output()
        .expect("tar runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn the_deploy_tab_lists_the_services_per_node_and_downloads_the_archive() {
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    text_of(c, ".node-count").await;
    for name in ["ctl-1", "ctl-2", "ctl-3"] {
        node(c, name, &["controller"]).await;
    }
    node(c, "cmp-1", &["compute"]).await;
    node(c, "cinder-1", &["cinder"]).await;
    click(c, ".tabs a[href='/environments/1/deploy']").await;
    eventually("the title names the tab", || async {
        c.title().await.unwrap() == "Environment lab · Deploy — Mosaic"
    })
    .await;
    assert_eq!(
        text_of(c, ".deploy .deployer").await,
        "Deployer: kolla-ansible 18 (OpenStack 2024.1)"
    );

    // Each node with the groups placing it and the services they bring.
    assert_eq!(
        text_of(c, "tr[data-host='cmp-1'] td.placed").await,
        "compute"
    );
    let compute = text_of(c, "tr[data-host='cmp-1'] td.services").await;
    assert!(compute.contains("openvswitch"), "{compute}");
    assert!(!compute.contains("mariadb"), "{compute}");
    let controller = text_of(c, "tr[data-host='ctl-1'] td.placed").await;
    assert!(
        controller.starts_with("control, network, mariadb, rabbitmq"),
        "{controller}"
    );
    let services = text_of(c, "tr[data-host='ctl-1'] td.services").await;
    assert!(services.contains("nova (api, "), "{services}");
    assert!(services.contains("neutron ("), "{services}");
    assert_eq!(
        text_of(c, "tr[data-host='cinder-1'] td.placed").await,
        "storage"
    );
    assert_eq!(text_of(c, ".deploy .node-count").await, "Nodes 1–5 of 5");
    save_screenshot(c, "deploy.png").await;

    // Filtered by name.
    c.find(Locator::Css(".host-filter"))
        .await
        .unwrap()
        .send_keys("CTL")
        .await
        .unwrap();
    eventually("the controllers only", || async {
        text_of(c, ".deploy .node-count").await == "Nodes 1–3 of 3 (filtered from 5)"
    })
    .await;

    // The archive the link downloads: a gzip'd tar of the files.
    let link = c.find(Locator::Css("a.download-archive")).await.unwrap();
    assert_eq!(link.attr("download").await.unwrap().as_deref(), Some(""));
    let href = link.attr("href").await.unwrap().unwrap();
    assert_eq!(href, "/api/v1/clusters/1/deployers/kolla-ansible/archive");
    let (status, disposition, bytes) = download(c, &href).await;
    assert_eq!(status, 200);
    assert_eq!(
        disposition,
        "attachment; filename=\"lab-kolla-ansible.tar.gz\""
    );
    assert_eq!(bytes[..2], [0x1f, 0x8b], "gzip's magic number");
    let names = entries(&bytes);
    for file in ["inventory", "globals.yml", "README.md"] {
        assert!(
            names.contains(&format!("lab-kolla-ansible/{file}")),
            "{file} in {names:?}"
        );
    }
    browser.close().await;
}

#[tokio::test]
async fn a_refused_environment_shows_each_problem_with_a_link_to_the_tab_that_fixes_it() {
    let (_server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    text_of(c, ".node-count").await;
    node(c, "bad name", &["controller"]).await;
    // A component kolla-ansible has none of: Contrail for the network.
    let releases = api(c, "GET", "/api/v1/releases", Value::Null).await;
    let components = [
        "hypervisor:libvirt:kvm",
        "network:neutron:core:contrail",
        "storage:block:backend:lvm",
        "storage:object:backend:swift",
        "storage:image:swift",
    ];
    api(
        c,
        "POST",
        "/api/v1/clusters",
        json!({"name": "overlay", "release_id": releases[0]["id"], "components": components}),
    )
    .await;
    api(
        c,
        "POST",
        "/api/v1/clusters/2/nodes",
        json!({"name": "ctl-1", "roles": ["controller"]}),
    )
    .await;

    // The node's name: fixed on the Nodes tab, where the link lands.
    click(c, ".tabs a[href='/environments/1/deploy']").await;
    let problem = text_of(c, ".export-problems li").await;
    assert!(
        problem.starts_with("node 'bad name': its name is not a valid host name"),
        "{problem}"
    );
    assert!(c.find(Locator::Css("a.download-archive")).await.is_err());
    let fix = c
        .find(Locator::Css(".export-problems li a.fix"))
        .await
        .unwrap();
    assert_eq!(fix.text().await.unwrap(), "Fix on the Nodes tab");
    save_screenshot(c, "deploy-refused.png").await;
    fix.click().await.unwrap();
    eventually("on the Nodes tab", || async {
        c.current_url().await.unwrap().path() == "/environments/1"
    })
    .await;
    text_of(c, ".node-count").await;

    // Contrail: fixed on the Components tab.
    let overlay = c
        .current_url()
        .await
        .unwrap()
        .join("/environments/2/deploy")
        .unwrap();
    c.goto(overlay.as_str()).await.unwrap();
    let listed = text_of(c, ".export-problems li").await;
    assert!(
        listed.starts_with("component 'network:neutron:core:contrail'"),
        "{listed}"
    );
    click(
        c,
        ".export-problems li a.fix[href='/environments/2/components']",
    )
    .await;
    eventually("on the Components tab", || async {
        c.current_url().await.unwrap().path() == "/environments/2/components"
    })
    .await;
    browser.close().await;
}
