// Trunk post-build hook: finishes the app in Trunk's staging directory.
//
// Trunk runs the hooks of one stage at the same time, so the steps that
// depend on each other are this one script, in order:
//
// 0. The split by route (docs/benchmarks.md, "The split by route"). Trunk
//    has no step between cargo and wasm-bindgen, so its module and glue
//    are made again here from cargo's module: tools/wasm-split cuts it
//    into the main module, a `split_*.wasm` per lazy route (Leptos's
//    `#[lazy_route]`) and `chunk_*.wasm` for code routes share, plus the
//    link module `__wasm_split-HASH.js` that loads them; wasm-bindgen
//    (`--keep-lld-exports`: the link module calls through the function
//    table) makes the glue of the main module; wasm-opt runs on every
//    module (release; Trunk's is off in index.html). Trunk's two files are
//    replaced under their names, and their integrity in index.html. Every
//    build needs this step: Trunk's own glue imports the splitter's
//    placeholder module and would not start. What each lazy module
//    downloads is listed in `lazy-modules.json`, from which the server
//    preloads a page's module with the document.
// 1. The CSS that stylers collected from the app's `style!` blocks
//    (`target/stylers/mosaic-app.css`, written by app/build.rs while Trunk
//    builds the app) is copied in under a name with its content hash, and
//    index.html links it. Every asset name then changes with its content,
//    so the server can let browsers keep them for a year (`immutable`).
// 2. Release builds: wasm-bindgen's JavaScript is minified by terser (npm,
//    pinned in package.json) and its integrity hash updated in index.html.
//    Trunk's own minifier cannot read the file's last line
//    (`export { …, __wbg_init as default }`) and copies it unchanged.
// 3. The API's page (`/api/docs`): Swagger UI from the npm package
//    swagger-ui-dist (pinned in package.json) copied into `api-docs/` under
//    hashed names, with the script that starts it on the server's
//    `/api/v1/openapi.json` and its page. It is not the app: the app's size
//    guard counts `dist/*` only, and browsers fetch it only on that page.
// 4. Release builds: every asset is precompressed, `NAME.br` (brotli,
//    quality 11) and `NAME.gz` (gzip -9), which `mosaic serve` sends to
//    browsers that accept them. Compressing once at build time lets the
//    slowest, smallest settings be used.
//
// Fails, leaving the build failed, when a step cannot be done: a page whose
// stylesheet is missing or whose script does not match its integrity
// attribute would not start.
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { promisify } from "node:util";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { minify } from "terser";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error("post-build: TRUNK_STAGING_DIR is not set (run me as a Trunk hook)");
  process.exit(2);
}
const release = process.env.TRUNK_PROFILE === "release";
const htmlPath = join(staging, "index.html");
let html = readFileSync(htmlPath, "utf8");

function fail(message) {
  console.error(`post-build: ${message}`);
  process.exit(1);
}

function replaceOnce(before, after, what) {
  if (!html.includes(before)) {
    fail(`index.html has no ${before} (${what})`);
  }
  html = html.split(before).join(after);
}

const integrity = (bytes) => "sha384-" + createHash("sha384").update(bytes).digest("base64");
const hashed = (name, bytes) => {
  const dot = name.lastIndexOf(".");
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  return `${name.slice(0, dot)}-${hash}${name.slice(dot)}`;
};

// 0. The split by route.
await split();

// 1. The stylers CSS, under a hashed name.
const stylers = readFileSync("target/stylers/mosaic-app.css");
const cssName = `mosaic-app-${createHash("sha256").update(stylers).digest("hex").slice(0, 16)}.css`;
copyFileSync("target/stylers/mosaic-app.css", join(staging, cssName));
// Trunk's minifier may have dropped the attribute's quotes: the URL is what is replaced.
replaceOnce("/mosaic-app.css", `/${cssName}`, "the stylers stylesheet");

// 2. The JavaScript, minified (the link module was, by step 0).
if (release) {
  for (const name of readdirSync(staging).filter((n) => n.endsWith(".js") && !isLink(n))) {
    const path = join(staging, name);
    const source = readFileSync(path);
    const result = await minify(source.toString("utf8"), {
      module: true,
      compress: { passes: 2 },
      mangle: true,
    });
    replaceOnce(integrity(source), integrity(Buffer.from(result.code, "utf8")), name);
    writeFileSync(path, result.code);
    console.log(`post-build: ${name} minified, ${source.length} -> ${result.code.length} bytes`);
  }
}
writeFileSync(htmlPath, html);

// 3. The API's page, Swagger UI.
const docs = join(staging, "api-docs");
mkdirSync(docs, { recursive: true });
const swagger = "node_modules/swagger-ui-dist";
const docsFiles = {};
for (const name of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
  const bytes = readFileSync(join(swagger, name));
  docsFiles[name] = hashed(name, bytes);
  writeFileSync(join(docs, docsFiles[name]), bytes);
}
// Its licence and notice travel with it (Apache-2.0).
copyFileSync(join(swagger, "LICENSE"), join(docs, "LICENSE.txt"));
copyFileSync(join(swagger, "NOTICE"), join(docs, "NOTICE.txt"));
// An inline script would need its own CSP hash: the start is a file.
const start = Buffer.from(
  `window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    // Nothing is loaded from elsewhere: no online validator badge.
    validatorUrl: null,
  });
});
`,
  "utf8",
);
docsFiles["api-docs.js"] = hashed("api-docs.js", start);
writeFileSync(join(docs, docsFiles["api-docs.js"]), start);
writeFileSync(
  join(docs, "index.html"),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Mosaic API</title>
    <link rel="stylesheet" href="/api/docs/${docsFiles["swagger-ui.css"]}" />
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="/api/docs/${docsFiles["swagger-ui-bundle.js"]}"></script>
    <script src="/api/docs/${docsFiles["api-docs.js"]}"></script>
  </body>
</html>
`,
);

// 4. Every asset, precompressed.
const compressible = /\.(html|js|wasm|css|svg|json|txt)$/;
if (release) {
  const assets = readdirSync(staging)
    .filter((n) => compressible.test(n))
    .concat(readdirSync(docs).filter((n) => compressible.test(n)).map((n) => join("api-docs", n)));
  for (const name of assets) {
    const bytes = readFileSync(join(staging, name));
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
    const gz = gzipSync(bytes, { level: 9 });
    writeFileSync(join(staging, `${name}.br`), br);
    writeFileSync(join(staging, `${name}.gz`), gz);
    console.log(`post-build: ${name} ${bytes.length} bytes, br ${br.length}, gzip ${gz.length}`);
  }
}

// The link module's name: `__wasm_split-HASH.js`.
function isLink(name) {
  return /^__wasm_split-[0-9a-f]{16}\.js$/.test(name);
}

// Each lazy module (`split_NAME.wasm`: NAME) with the files its load
// fetches: its own and the chunks the splitter's link module lists it
// under (each chunk's comment names the modules that use it).
function lazyModules(link, modules) {
  const lazy = {};
  for (const module of modules) {
    const name = /^split_(.+)\.wasm$/.exec(module);
    if (name) lazy[name[1]] = [module];
  }
  const chunk = /\/\* ([a-z_, ]+) \*\/\s*const __chunk_\d+ = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(chunk_\d+\.wasm)"/g;
  let chunks = 0;
  for (const [, users, file] of link.matchAll(chunk)) {
    chunks++;
    for (const user of users.split(", ")) {
      if (!lazy[user]) fail(`the link module's ${file} names ${user}, no lazy module`);
      lazy[user].push(file);
    }
  }
  const all = modules.filter((m) => m.startsWith("chunk_")).length;
  if (chunks !== all) fail(`read ${chunks} of the link module's ${all} chunks: its form changed`);
  return lazy;
}

// Step 0: cargo's module split, bound and optimized, in place of Trunk's.
async function split() {
  const profile = release ? "wasm-release" : "debug";
  const target = process.env.CARGO_TARGET_DIR || "target";
  const input = join(target, "wasm32-unknown-unknown", profile, "mosaic-app.wasm");
  const glue = readdirSync(staging).filter((n) => /^mosaic-app-[0-9a-f]+\.js$/.test(n));
  if (glue.length !== 1) {
    fail(`expected one mosaic-app-HASH.js in ${staging}, found ${glue.length}`);
  }
  const jsName = glue[0];
  const wasmName = jsName.replace(/\.js$/, "_bg.wasm");
  const work = join(target, "wasm-split", profile);
  rmSync(work, { recursive: true, force: true });
  // Named by its content once that is known; the same length, so the
  // name can be replaced in the main module's bytes.
  const placeholder = "__wasm_split-0000000000000000.js";
  const listed = execFileSync(
    "cargo",
    ["run", "-q", "--locked", "--offline", "-p", "mosaic-wasm-split", "--"].concat([
      input,
      work,
      `./${jsName}`,
      `./${placeholder}`,
    ]),
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  const modules = JSON.parse(listed).modules;
  const bound = join(work, "bindgen");
  execFileSync(
    "wasm-bindgen",
    ["--target=web", "--keep-lld-exports", "--no-typescript", `--out-dir=${bound}`]
      .concat(["--out-name=mosaic-app", join(work, "main.wasm")]),
    { stdio: "inherit" },
  );
  const mainWasm = join(bound, "mosaic-app_bg.wasm");
  if (release) {
    await optimize([mainWasm].concat(modules.map((m) => join(work, m))));
  }
  let link = readFileSync(join(work, placeholder), "utf8");
  const lazy = lazyModules(link, modules);
  const names = {};
  for (const module of modules) {
    const bytes = readFileSync(join(work, module));
    const named = hashed(module, bytes);
    const before = `"./${module}"`;
    if (link.split(before).length !== 2) {
      fail(`the link module names ${module} ${link.split(before).length - 1} times, not once`);
    }
    link = link.replace(before, `"./${named}"`);
    writeFileSync(join(staging, named), bytes);
    names[module] = named;
  }
  // What each lazy module downloads, under the names served: the server
  // names them with the document of a page that needs one (a `Link`
  // preload, server/src/http/assets.rs), so they download with the main module.
  for (const files of Object.values(lazy)) {
    files.forEach((file, i) => (files[i] = names[file]));
  }
  writeFileSync(join(staging, "lazy-modules.json"), JSON.stringify(lazy));
  if (release) {
    link = (await minify(link, { module: true, compress: { passes: 2 }, mangle: true })).code;
  }
  const linkName = hashed("__wasm_split.js", Buffer.from(link, "utf8"));
  writeFileSync(join(staging, linkName), link);
  // The glue imports the link module: asked for with the glue, not after
  // it (one round trip less on a first visit).
  const preload = `<link crossorigin href=/${linkName} integrity=${integrity(Buffer.from(link, "utf8"))} rel=modulepreload>`;
  replaceOnce("</head>", `${preload}</head>`, "the end of the head");
  let js = readFileSync(join(bound, "mosaic-app.js"), "utf8");
  if (!js.includes(placeholder)) {
    fail(`wasm-bindgen's glue does not import ${placeholder}`);
  }
  js = js.split(placeholder).join(linkName);
  const wasm = replaceBytes(readFileSync(mainWasm), placeholder, linkName);
  for (const [name, text] of [[jsName, js], [linkName, link]]) {
    for (const stale of ["__wasm_split_placeholder__", "__wbindgen_placeholder__"]) {
      if (text.includes(stale)) {
        fail(`${name} still imports ${stale}: the split and wasm-bindgen do not agree`);
      }
    }
  }
  replaceOnce(integrity(readFileSync(join(staging, jsName))), integrity(Buffer.from(js)), jsName);
  replaceOnce(integrity(readFileSync(join(staging, wasmName))), integrity(wasm), wasmName);
  writeFileSync(join(staging, jsName), js);
  writeFileSync(join(staging, wasmName), wasm);
  console.log(`post-build: split into ${wasmName} and ${modules.length} lazy modules`);
}

// `bytes` with every `before` replaced by `after`, of the same length.
function replaceBytes(bytes, before, after) {
  const from = Buffer.from(before);
  const to = Buffer.from(after);
  if (from.length !== to.length) {
    fail(`${after} is not as long as ${before}`);
  }
  let at = bytes.indexOf(from);
  if (at < 0) {
    fail(`the main module does not import ${before}`);
  }
  while (at >= 0) {
    to.copy(bytes, at);
    at = bytes.indexOf(from, at + to.length);
  }
  return bytes;
}

// wasm-opt over every module, two at a time (the machine has two cores):
// `-Os`, functions sorted by name (docs/benchmarks.md, "The size guard").
// Once, not until nothing changes (`--converge`): that took a minute more
// of every build for about a kilobyte, and the first visit is far under
// its guard since the split.
async function optimize(paths) {
  const run = promisify(execFile);
  const queue = [...paths];
  const worker = async () => {
    for (let path = queue.shift(); path; path = queue.shift()) {
      await run("wasm-opt", ["-Os", "--reorder-functions-by-name", path, "-o", path]);
    }
  };
  await Promise.all([worker(), worker()]);
}
