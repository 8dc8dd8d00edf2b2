// `node --import ./loaded-files.mjs …`: appends the URL of every file: module the process resolves to the
// file named by LOADED_FILES_FILE (one a line), so a test can check which of our built files a run reads.
import { register } from "node:module";

const hooks = `
import { appendFileSync } from "node:fs";
const file = process.env.LOADED_FILES_FILE;
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file && resolved.url.startsWith("file:")) appendFileSync(file, resolved.url + "\\n");
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
