// `node --import ./loaded-packages.mjs …`: appends every npm package the process resolves to the file named
// by LOADED_PACKAGES_FILE (one name a line), so a test can check what a CLI verb really loads. A file of a
// bundle (dist/bundle/) counts with every package bundled into it: esbuild heads each module it inlines
// with a `// node_modules/PACKAGE/…` line.
import { register } from "node:module";

const hooks = `
import { appendFileSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
const file = process.env.LOADED_PACKAGES_FILE;
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!file) return resolved;
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
  if (m) appendFileSync(file, m[1] + "\\n");
  if (/\\/dist\\/bundle\\/[^?#]+\\.js$/.test(resolved.url)) {
    const text = readFileSync(fileURLToPath(resolved.url), "utf8");
    const bundled = new Set();
    for (const line of text.matchAll(/^\\/\\/ node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//gm)) bundled.add(line[1]);
    for (const name of bundled) appendFileSync(file, name + "\\n");
  }
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
