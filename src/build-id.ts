import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

let known: string | undefined;

/**
 * A digest of this installation's built code (dist/build-id.json, written by `npm run build`), or
 * "source" when running from src/ (tests) or from a build that did not write it. It changes with every
 * rebuilt file where the package version may not.
 */
export function buildId(): string {
  if (known === undefined) {
    try {
      const text = readFileSync(join(packageRoot(), "dist", "build-id.json"), "utf8");
      const { build } = JSON.parse(text) as { build?: unknown };
      known = typeof build === "string" && build !== "" ? build : "source";
    } catch {
      known = "source";
    }
  }
  return known;
}
