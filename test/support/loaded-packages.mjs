// `node --import ./loaded-packages.mjs …`: appends every npm package the process resolves to the file named
// by LOADED_PACKAGES_FILE (one name a line), so a test can check what a CLI verb really loads.
import { register } from "node:module";

const hooks = `
import { appendFileSync } from "node:fs";
const file = process.env.LOADED_PACKAGES_FILE;
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
  if (m && file) appendFileSync(file, m[1] + "\\n");
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
