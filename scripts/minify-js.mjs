// Trunk post-build hook: minifies the JavaScript wasm-bindgen wrote for the
// app (release builds only) and updates its integrity hash in index.html.
//
// Trunk minifies JavaScript itself, but its minifier cannot read the
// `export { …, __wbg_init as default }` line wasm-bindgen ends the file
// with, so it warns and copies the file unchanged (8.7 KB gzipped instead
// of 6.5 KB; docs/benchmarks.md, "App size"). Terser (npm, pinned in
// package.json) reads it.
//
// Fails, leaving the build failed, when a file cannot be minified or its
// hash is not in index.html: a page whose script does not match its
// integrity attribute would not start.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) {
  console.error("minify-js: TRUNK_STAGING_DIR is not set (run me as a Trunk hook)");
  process.exit(2);
}
if (process.env.TRUNK_PROFILE !== "release") {
  process.exit(0);
}

const integrity = (bytes) => "sha384-" + createHash("sha384").update(bytes).digest("base64");
const htmlPath = join(staging, "index.html");
let html = readFileSync(htmlPath, "utf8");

for (const name of readdirSync(staging).filter((n) => n.endsWith(".js"))) {
  const path = join(staging, name);
  const source = readFileSync(path);
  const result = await minify(source.toString("utf8"), {
    module: true,
    compress: { passes: 2 },
    mangle: true,
  });
  const before = integrity(source);
  const after = integrity(Buffer.from(result.code, "utf8"));
  if (!html.includes(before)) {
    console.error(`minify-js: index.html has no integrity ${before} for ${name}`);
    process.exit(1);
  }
  html = html.split(before).join(after);
  writeFileSync(path, result.code);
  console.log(`minify-js: ${name} ${source.length} -> ${result.code.length} bytes`);
}
writeFileSync(htmlPath, html);
