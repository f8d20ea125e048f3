// Assembles splendor/ai/kernel.wat (the expert's network kernel) into splendor/ai/kernel_wasm.py, the bytes the
// worker instantiates: WebAssembly text to binary with wabt (npm, pinned in package-lock.json as a development
// package; nothing of it ships). The generated file is committed, so the site's build needs no assembler;
// tests/test_ai_kernel.py checks that it matches this file's output for the .wat in the tree.
//
//   node tools/build_kernel.mjs            write splendor/ai/kernel_wasm.py
//   node tools/build_kernel.mjs --print    print the module's text to stdout instead
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
let wabtPath;
try {
  wabtPath = require.resolve("wabt");
} catch {
  // WABT_DIR: a folder whose node_modules holds wabt, where the project's own node_modules has none yet
  wabtPath = createRequire(join(process.env.WABT_DIR || root, "package.json")).resolve("wabt");
}
const wabt = await require(wabtPath)();
const source = readFileSync(join(root, "splendor/ai/kernel.wat"), "utf8");
const module = wabt.parseWat("kernel.wat", source, { simd: true });
module.validate();
const { buffer } = module.toBinary({});
const hex = Buffer.from(buffer).toString("hex");
const lines = [];
for (let i = 0; i < hex.length; i += 96) lines.push(`    "${hex.slice(i, i + 96)}"`);
const text = `"""The expert's network kernel as WebAssembly bytes (${buffer.length} bytes), assembled from kernel.wat by
\`\`node tools/build_kernel.mjs\`\`: generated, do not edit (tests/test_ai_kernel.py checks it against the .wat)."""

WASM = bytes.fromhex(
${lines.join("\n")}
)
`;
if (process.argv.includes("--print")) process.stdout.write(text);
else {
  writeFileSync(join(root, "splendor/ai/kernel_wasm.py"), text);
  console.log(`splendor/ai/kernel_wasm.py: ${buffer.length} bytes of WebAssembly`);
}
