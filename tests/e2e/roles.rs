//! Roles over time in the browser (issue 33's acceptance): on an
//! environment with three controllers, RabbitMQ is taken from the
//! controller role there — the change says how many nodes it affects
//! before it is saved, and the preview shows no RabbitMQ task on any
//! controller —; a role `messaging` with `rabbitmq` is created and given to
//! a new node, where the RabbitMQ tasks then run alone; the release's other
//! environment is unchanged.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::{
    click, create_environment, eventually, open_nodes, open_preview, save_screenshot, text_of,
};

/// Runs `body` (JavaScript with `args` bound, awaiting `call`) in the
/// signed-in page: the app's own session makes the API calls.
async fn in_page(c: &Client, body: &str, args: Value) -> Value {
    let script = format!(
        "const [args, done] = arguments;
         const call = async (method, url, body) => {{
           const r = await fetch(url, {{method, headers: {{'content-type': 'application/json'}}, body: body === undefined ? undefined : JSON.stringify(body)}});
           if (!r.ok) throw new Error(url + ': ' + r.status + ' ' + await r.text());
           return r.json();
         }};
         (async () => {{ {body} }})().then(done, e => done('failed: ' + e));"
    );
    c.execute_async(&script, vec![args]).await.unwrap()
}

/// The task lists of the preview's groups, by the nodes of each group.
async fn plan_groups(c: &Client) -> Vec<(String, String)> {
    let mut groups = Vec::new();
    for group in c.find_all(Locator::Css(".node-plan")).await.unwrap() {
        let nodes = group
            .attr("data-nodes")
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        let Ok(list) = group.find(Locator::Css("ol.tasks")).await else {
            continue;
        };
        groups.push((nodes, list.text().await.unwrap_or_default()));
    }
    groups
}

/// The nodes (ids) of the groups whose tasks name RabbitMQ, once the
/// preview shows `expected` of them.
async fn rabbitmq_nodes_become(c: &Client, expected: &[&str]) {
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    eventually(&format!("RabbitMQ tasks on nodes {expected:?}"), || async {
        let mut got: Vec<String> = plan_groups(c)
            .await
            .into_iter()
            .filter(|(_, tasks)| tasks.contains("rabbitmq"))
            .flat_map(|(nodes, _)| {
                nodes
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect();
        got.sort();
        got == expected
    })
    .await;
}

#[tokio::test]
async fn rabbitmq_leaves_the_controllers_for_a_role_of_its_own() {
    let (server, browser, _) = create_environment("lab").await;
    let c = &browser.client;
    // Three controllers here, and a second environment with one.
    let answer = in_page(
        c,
        "const lab = await call('GET', '/api/v1/clusters/1');
         for (let i = 0; i < 3; i++) {
           await call('POST', '/api/v1/clusters/1/nodes', {name: `ctl-${i + 1}`, roles: ['controller'], status: 'ready'});
         }
         const other = await call('POST', '/api/v1/clusters',
           {name: 'other', release_id: lab.release_id, components: lab.components});
         await call('POST', `/api/v1/clusters/${other.id}/nodes`, {name: 'other-ctl', roles: ['controller']});
         return other.id;",
        json!({}),
    )
    .await;
    assert_eq!(answer, json!(2), "{answer}");

    c.goto(&format!("{}/environments/1/tags", server.url))
        .await
        .unwrap();
    let controller = "[data-role='controller']";
    text_of(c, &format!("{controller} .chip[data-tag='rabbitmq']")).await;
    assert_eq!(
        text_of(c, &format!("{controller} .role-source")).await,
        "as declared"
    );
    click(
        c,
        &format!("{controller} .chip[data-tag='rabbitmq'] button.remove-tag"),
    )
    .await;
    assert_eq!(
        text_of(c, &format!("{controller} .role-preview")).await,
        "Affects 3 nodes: removes rabbitmq."
    );
    c.execute(
        "document.querySelector(\"[data-role='controller']\").scrollIntoView({block: 'center'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "roles-change-preview.png").await;
    click(c, &format!("{controller} button.save-role")).await;
    eventually("the controller's set changed here", || async {
        text_of(c, &format!("{controller} .role-source")).await == "changed here"
    })
    .await;
    assert!(
        c.find(Locator::Css(&format!("{controller} .role-preview")))
            .await
            .is_err()
    );

    // A role of its own, with RabbitMQ.
    let field = |css: &'static str| async move { c.find(Locator::Css(css)).await.unwrap() };
    field("input.new-role-name")
        .await
        .send_keys("messaging")
        .await
        .unwrap();
    field("input.new-role-label")
        .await
        .send_keys("Messaging")
        .await
        .unwrap();
    field("input.new-role-tags")
        .await
        .send_keys("rabbitmq")
        .await
        .unwrap();
    click(c, "button.create-role").await;
    text_of(c, "[data-role='messaging'] .chip[data-tag='rabbitmq']").await;
    assert_eq!(
        text_of(c, "[data-role='messaging'] .role-source").await,
        "created here"
    );
    c.execute(
        "document.querySelector(\"[data-role='messaging']\").scrollIntoView({block: 'center'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "roles-section.png").await;

    // The preview: no RabbitMQ task on any controller.
    c.goto(&format!("{}/environments/1/preview", server.url))
        .await
        .unwrap();
    text_of(c, ".node-plan ol.tasks").await;
    rabbitmq_nodes_become(c, &[]).await;
    // A new node with the role: the RabbitMQ tasks run there only.
    open_nodes(c).await;
    click(c, ".add-node input[data-role='messaging']").await;
    click(c, ".add-node-button").await;
    text_of(c, "[data-node='5'] .chip[data-tag='rabbitmq']").await;
    open_preview(c).await;
    rabbitmq_nodes_become(c, &["5"]).await;
    let groups = plan_groups(c).await;
    let messaging = groups
        .iter()
        .find(|(nodes, _)| nodes == "5")
        .map(|(_, t)| t.clone());
    assert!(
        messaging.is_some_and(|t| t.contains("primary-rabbitmq")),
        "{groups:?}"
    );
    c.execute(
        "document.querySelector('.node-plan').scrollIntoView({block: 'start'})",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "roles-preview.png").await;

    // The release's other environment is unchanged.
    c.goto(&format!("{}/environments/2/preview", server.url))
        .await
        .unwrap();
    text_of(c, ".node-plan ol.tasks").await;
    rabbitmq_nodes_become(c, &["4"]).await;
    browser.close().await;
}
