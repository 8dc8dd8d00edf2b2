import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

/** This installation's version (package.json), as the MCP handshake, /healthz and the record report it. */
export const SERVER_VERSION: string = (
  JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string }
).version;
