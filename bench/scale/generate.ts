/**
 * `node …/bench/scale/generate.js DECISIONS FILE [SHAPE]`: writes a scale record (see generate-record.ts;
 * SHAPE mixed, the default, or short-spanning) to FILE (created; an existing file is refused) and prints
 * its size and how long writing it took.
 */
import { existsSync } from "node:fs";
import { Store } from "../../src/store/store.js";
import { generateRecord, RECORD_SHAPES, type RecordShape } from "./generate-record.js";

const [decisionsArg, path, shapeArg = "mixed"] = process.argv.slice(2);
const decisions = Number(decisionsArg);
if (!Number.isInteger(decisions) || decisions < 1 || path === undefined) {
  console.error(
    `Usage: generate.js DECISIONS FILE [SHAPE] (got ${process.argv.slice(2).join(" ") || "nothing"}).`,
  );
  process.exit(2);
}
if (!RECORD_SHAPES.includes(shapeArg as RecordShape)) {
  console.error(`Shape ${shapeArg} is invalid; valid shapes: ${RECORD_SHAPES.join(", ")}.`);
  process.exit(2);
}
if (existsSync(path)) {
  console.error(`${path} exists; the generator writes a new record only.`);
  process.exit(2);
}
const started = performance.now();
const store = new Store(path);
const record = generateRecord(store, decisions, 1, shapeArg as RecordShape);
store.close();
console.log(JSON.stringify({ ...record, seconds: (performance.now() - started) / 1000 }));
