import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";

// The note names the docs list are the names a reader finds in an analysis result's `notes`: each must be
// a name the code gives a note, spelled the same.

function sourceText(dir: string): string {
  return readdirSync(dir)
    .map((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return sourceText(path);
      return path.endsWith(".ts") ? readFileSync(path, "utf8") : "";
    })
    .join("\n");
}

/** The backticked names listing `notes`: from "information that is never a failure" to robustness_coverage. */
function listedNotes(doc: string): string[] {
  const text = readFileSync(join(packageRoot(), "docs", doc), "utf8");
  const at = text.indexOf("information that is never a failure");
  expect(at, `${doc} lists the notes`).toBeGreaterThan(0);
  const end = text.indexOf("`robustness_coverage`", at) + "`robustness_coverage`".length;
  return [...text.slice(at, end).matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string);
}

describe("the note names in docs/tools.md and docs/science.md", () => {
  const source = sourceText(join(packageRoot(), "src"));
  for (const doc of ["tools.md", "science.md"]) {
    it(`${doc}: every listed note is a name the code gives a note`, () => {
      const names = listedNotes(doc);
      expect(names).toContain("lambda_on_bound");
      for (const name of names) expect(source, name).toContain(`"${name}"`);
    });
  }
});
