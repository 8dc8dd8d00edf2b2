/**
 * `node …/bench/scale/generate.js DECISIONS FILE`: writes a scale record (see generate-record.ts) to FILE
 * (created; an existing file is refused) and prints its size and how long writing it took.
 */
import { existsSync } from "node:fs";
import { Store } from "../../src/store/store.js";
import { generateRecord } from "./generate-record.js";

const [decisionsArg, path] = process.argv.slice(2);
const decisions = Number(decisionsArg);
if (!Number.isInteger(decisions) || decisions < 1 || path === undefined) {
  console.error(`Usage: generate.js DECISIONS FILE (got ${process.argv.slice(2).join(" ") || "nothing"}).`);
  process.exit(2);
}
if (existsSync(path)) {
  console.error(`${path} exists; the generator writes a new record only.`);
  process.exit(2);
}
const started = performance.now();
const store = new Store(path);
const record = generateRecord(store, decisions);
store.close();
console.log(JSON.stringify({ ...record, seconds: (performance.now() - started) / 1000 }));
