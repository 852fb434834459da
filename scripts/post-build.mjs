// Trunk post-build hook: finishes the app in Trunk's staging directory.
//
// Trunk runs the hooks of one stage at the same time, so the steps that
// depend on each other are this one script, in order:
//
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
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

// 1. The stylers CSS, under a hashed name.
const stylers = readFileSync("target/stylers/mosaic-app.css");
const cssName = `mosaic-app-${createHash("sha256").update(stylers).digest("hex").slice(0, 16)}.css`;
copyFileSync("target/stylers/mosaic-app.css", join(staging, cssName));
// Trunk's minifier may have dropped the attribute's quotes: the URL is what is replaced.
replaceOnce("/mosaic-app.css", `/${cssName}`, "the stylers stylesheet");

// 2. The JavaScript, minified.
const integrity = (bytes) => "sha384-" + createHash("sha384").update(bytes).digest("base64");
if (release) {
  for (const name of readdirSync(staging).filter((n) => n.endsWith(".js"))) {
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
const hashed = (name, bytes) => {
  const dot = name.lastIndexOf(".");
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  return `${name.slice(0, dot)}-${hash}${name.slice(dot)}`;
};
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
