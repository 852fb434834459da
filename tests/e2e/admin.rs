//! Admins at scale: 200 nodes created through the API, one rack filtered
//! by name and tagged in one action, the preview regrouped, the
//! environment deleted, the bundled release uninstalled and reinstalled —
//! all in the browser.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use super::{
    Who, click, create_environment_as, eventually, open_nodes, open_preview, save_screenshot,
    text_of, uninstall,
};

/// Runs `body` (JavaScript with `id` and `count` bound, awaiting `post`)
/// in the signed-in page: the app's own session does the API calls.
async fn in_page(c: &Client, body: &str, args: Value) -> Value {
    let script = format!(
        "const [args, done] = arguments;
         const post = async (url, body) => {{
           const r = await fetch(url, {{method: 'POST', headers: {{'content-type': 'application/json'}}, body: JSON.stringify(body)}});
           if (!r.ok) throw new Error(url + ': ' + r.status + ' ' + await r.text());
           return r.json();
         }};
         (async () => {{ {body} }})().then(done, e => done('failed: ' + e));"
    );
    c.execute_async(&script, vec![args]).await.unwrap()
}

/// Creates `count` compute nodes `rack{R}-{I}`, twenty to a rack.
pub async fn create_nodes(c: &Client, cluster: i64, count: usize) {
    let answer = in_page(
        c,
        "for (let i = 0; i < args.count; i++) {
           await post(`/api/v1/clusters/${args.id}/nodes`,
                      {name: `rack${Math.floor(i / 20)}-${i % 20}`, roles: ['compute']});
         }
         return 'done';",
        json!({"id": cluster, "count": count}),
    )
    .await;
    assert_eq!(answer, json!("done"), "{answer}");
}

/// Imports environment `name` with `count` ready compute nodes
/// `rack{R}-{I}`, forty to a rack, in one request; its id.
pub async fn import_nodes(c: &Client, name: &str, count: usize) -> i64 {
    let answer = in_page(
        c,
        "const releases = await (await fetch('/api/v1/releases')).json();
         const lines = [`release_name: ${JSON.stringify(releases[0].name)}`, 'mode: multinode', 'nodes:'];
         for (let i = 1; i <= args.count; i++) {
           lines.push(`  - {id: ${i}, name: rack${Math.floor(i / 40)}-${i % 40}, status: ready, roles: [compute]}`);
         }
         const r = await fetch(`/api/v1/clusters/import?name=${args.name}`,
                               {method: 'POST', headers: {'content-type': 'application/yaml'}, body: lines.join('\\n') + '\\n'});
         if (!r.ok) throw new Error('import: ' + r.status + ' ' + await r.text());
         return (await r.json()).id;",
        json!({"name": name, "count": count}),
    )
    .await;
    answer
        .as_i64()
        .unwrap_or_else(|| panic!("the import failed: {answer}"))
}

async fn type_into(c: &Client, css: &str, text: &str) {
    let field = c.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// Waits until the table's count line reads `expected`.
async fn counted(c: &Client, expected: &str) {
    eventually(expected, || async {
        text_of(c, ".node-count").await == expected
    })
    .await;
}

#[tokio::test]
async fn an_admin_tags_a_rack_then_deletes_the_environment_and_reinstalls_the_release() {
    let (_server, browser, _) = create_environment_as("scale", Who::Admin).await;
    let c = &browser.client;
    let answer = in_page(
        c,
        "return (await post('/api/v1/releases/1/tags', {name: 'mysql'})).name;",
        json!({}),
    )
    .await;
    assert_eq!(answer, json!("mysql"));
    create_nodes(c, 1, 200).await;
    c.refresh().await.unwrap();
    text_of(c, "tr.node-row").await;
    assert_eq!(text_of(c, ".node-count").await, "Nodes 1–50 of 200");
    // The pages: a `>=` in the Next button's `disabled` once ended its tag
    // early, which put the code on the button as text and lost its click.
    assert_eq!(text_of(c, "button.next-page").await, "Next");
    click(c, "button.next-page").await;
    counted(c, "Nodes 51–100 of 200").await;
    click(c, "button.previous-page").await;
    counted(c, "Nodes 1–50 of 200").await;

    // One rack by name, all of it selected, two tags in one action.
    type_into(c, ".filter-name", "rack3-").await;
    counted(c, "Nodes 1–20 of 20 (filtered from 200)").await;
    click(c, "input.select-all").await;
    type_into(c, ".bulk-tags", "rabbitmq mysql:1").await;
    let table = c.find(Locator::Css("table.nodes-table")).await.unwrap();
    let first = "tr.node-row input.select-node";
    let box_before = c.find(Locator::Css(first)).await.unwrap();
    click(c, "button.bulk-assign").await;
    eventually("the rack tagged", || async {
        c.find_all(Locator::Css("tr.node-row .chip[data-tag='mysql:1']"))
            .await
            .is_ok_and(|rows| rows.len() == 20)
    })
    .await;
    // The filter and the selection survive the change.
    assert!(text_of(c, ".node-count").await.ends_with("20 selected"));
    // The rows changed in place: a row's box is the same element, in the
    // same table, and the box used keeps the focus.
    let same = "return arguments[0].isConnected && arguments[1].contains(arguments[0])
                && document.querySelector(arguments[2]) === arguments[0]";
    let args = || {
        vec![
            serde_json::to_value(&box_before).unwrap(),
            serde_json::to_value(&table).unwrap(),
            json!(first),
        ]
    };
    assert_eq!(c.execute(same, args()).await.unwrap(), json!(true));
    box_before.click().await.unwrap();
    counted(c, "Nodes 1–20 of 20 (filtered from 200); 19 selected").await;
    let focused =
        "return document.activeElement === arguments[0] && arguments[1].contains(arguments[0])";
    assert_eq!(
        c.execute(focused, args()).await.unwrap(),
        json!(true),
        "the focus stays on the box clicked"
    );
    box_before.click().await.unwrap();
    counted(c, "Nodes 1–20 of 20 (filtered from 200); 20 selected").await;
    // The preview regroups: 180 plain compute nodes, 20 with RabbitMQ.
    // (the primary RabbitMQ node may form a group of its own).
    open_preview(c).await;
    let mut tagged = 0;
    let mut titles = Vec::new();
    for title in c
        .find_all(Locator::Css(".plan-group summary strong"))
        .await
        .unwrap()
    {
        let text = title.text().await.unwrap();
        let count: usize = text.split(' ').next().unwrap().parse().unwrap();
        if text.contains("rabbitmq") && text.contains("mysql:1") {
            tagged += count;
        }
        titles.push(text);
    }
    assert!(
        titles.contains(&"180 nodes: compute".to_owned()),
        "{titles:?}"
    );
    assert_eq!(tagged, 20, "{titles:?}");
    // Back on the Nodes tab, the rack is still filtered and selected.
    open_nodes(c).await;
    counted(c, "Nodes 1–20 of 20 (filtered from 200); 20 selected").await;
    c.execute(
        "document.querySelector('.node-table').scrollIntoView()",
        vec![],
    )
    .await
    .unwrap();
    save_screenshot(c, "node-table.png").await;

    // A check links to the nodes it concerns.
    text_of(c, ".checks").await;

    // Delete the environment, after a confirmation naming what goes.
    click(c, "button.delete-environment").await;
    let question = c.get_alert_text().await.unwrap();
    assert!(question.contains("200 nodes"), "{question}");
    c.accept_alert().await.unwrap();
    eventually("back on the wizard", || async {
        c.find(Locator::Id("environment-name")).await.is_ok()
    })
    .await;

    // Uninstall the bundled release, then bring it back in one click.
    c.goto(&format!(
        "{}/plugins",
        c.current_url()
            .await
            .unwrap()
            .origin()
            .ascii_serialization()
    ))
    .await
    .unwrap();
    uninstall(c, "openstack").await;
    click(c, ".nav a[href='/']").await;
    click(c, "button.reinstall-bundled").await;
    eventually("the wizard again", || async {
        c.find(Locator::Id("environment-name")).await.is_ok()
    })
    .await;
    browser.close().await;
}

#[tokio::test]
async fn an_operator_creates_a_tag_with_a_primary_changes_it_and_deletes_it() {
    let (_server, browser, _) = create_environment_as("tag-lab", Who::Operator).await;
    let c = &browser.client;
    click(c, ".tabs a[href='/environments/1/tags']").await;
    text_of(c, ".tags-table").await;
    type_into(c, "input.new-tag-name", "mysql").await;
    click(c, "input.new-tag-primary").await;
    click(c, "button.create-tag").await;
    let primary = "tr[data-tag='mysql'] input.has-primary";
    text_of(c, "tr[data-tag='mysql']").await;
    let ticked = || async {
        c.find(Locator::Css(primary))
            .await
            .unwrap()
            .is_selected()
            .await
            .unwrap()
    };
    assert!(ticked().await, "created with a primary");
    let name = c.find(Locator::Css("input.new-tag-name")).await.unwrap();
    let typed = name.prop("value").await.unwrap();
    assert_eq!(typed.as_deref(), Some(""), "the form is cleared");
    // The same name again is refused, and the form says why.
    type_into(c, "input.new-tag-name", "mysql").await;
    click(c, "button.create-tag").await;
    let why = text_of(c, "form.new-tag .notice-error").await;
    assert!(why.contains("mysql"), "{why}");
    // The tags are loaded again after the change, and the table follows
    // them in place: the box just clicked keeps the focus.
    let table = c.find(Locator::Css(".tags-table")).await.unwrap();
    click(c, primary).await;
    eventually("the primary unticked", || async { !ticked().await }).await;
    let focused = c
        .execute(
            "return document.activeElement.matches(arguments[0])",
            vec![json!(primary)],
        )
        .await
        .unwrap();
    assert_eq!(focused, json!(true), "the focus stays on the box clicked");
    assert!(
        table.is_displayed().await.is_ok(),
        "the same table, not a new one"
    );
    click(c, "tr[data-tag='mysql'] button.delete-tag").await;
    eventually("mysql deleted", || async {
        c.find(Locator::Css("tr[data-tag='mysql']")).await.is_err()
    })
    .await;
    browser.close().await;
}
