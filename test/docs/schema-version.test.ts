import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";

// docs/cli.md states the record's schema version and lists the recent migrations: a new migration must
// bring the page along, or readers compare their record against a stale number.

it("docs/cli.md names the highest migration as the schema version, and lists it", () => {
  const migrations = readdirSync(join(packageRoot(), "db"))
    .filter((name) => /^\d{3}_.*\.sql$/.test(name))
    .map((name) => Number(name.slice(0, 3)));
  const highest = Math.max(...migrations);
  const page = readFileSync(join(packageRoot(), "docs", "cli.md"), "utf8");
  const stated = /The schema version is (\d+) \(([^)]*)\)/.exec(page);
  expect(stated, 'docs/cli.md says "The schema version is N (…)"').not.toBeNull();
  expect(Number(stated?.[1])).toBe(highest);
  expect(stated?.[2]).toContain(String(highest).padStart(3, "0"));
});

it("docs/shared-service.md shows /readyz refusing a record one schema version newer than this build reads", () => {
  const migrations = readdirSync(join(packageRoot(), "db"))
    .filter((name) => /^\d{3}_.*\.sql$/.test(name))
    .map((name) => Number(name.slice(0, 3)));
  const highest = Math.max(...migrations);
  const page = readFileSync(join(packageRoot(), "docs", "shared-service.md"), "utf8").replace(/\s+/g, " ");
  const example = /The record's schema version is (\d+), newer than the (\d+) this build reads/.exec(page);
  expect(example, "docs/shared-service.md quotes the /readyz refusal").not.toBeNull();
  expect([Number(example?.[1]), Number(example?.[2])]).toEqual([highest + 1, highest]);
});
