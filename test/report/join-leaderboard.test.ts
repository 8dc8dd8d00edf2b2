import { afterEach, beforeEach, expect, it } from "vitest";
import {
  recordIntegrityCheck,
  reportData,
  reportLeaderboard,
  reportSections,
} from "../../src/queries/report-data-query.js";
import { withIntegrityCheck, withLeaderboard } from "../../src/report/join-leaderboard.js";
import { tempDeps } from "../support/harness.js";
import { playSmallRecord } from "../support/small-one-shot-record.js";

// A server computes the report's leaderboard on one worker and its other sections on another: joined, they
// must be the report computed in one go. The small record (small-one-shot-record.ts) has two players, but
// only p played both framings, so there is no leaderboard and the report says why, after robustness.
let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
  playSmallRecord(deps.store);
});
afterEach(() => deps.dispose());

const undated = (data: ReturnType<typeof reportData>) => ({
  ...data,
  header: { ...data.header, generated_at: "" },
});

it("joins the sections and the leaderboard computed apart into the report computed in one go", () => {
  const query = { bootstrap: 50, seed: 3 };
  const sections = reportSections(deps, query);
  expect(sections.leaderboard).toBeNull();
  const ranked = reportLeaderboard(deps, query);
  expect(ranked.leaderboard).toBeNull();
  expect(ranked.reason).toMatch(/^a rank needs every player on the same two framings or more/);
  const joined = withLeaderboard(sections, ranked);
  // Every section but the leaderboard can be computed on this record, so the leaderboard's is the only reason.
  expect(sections.missing).toEqual([]);
  // Every section as computed apart, the leaderboard in its place, and its reason after the sections' own.
  const { missing, leaderboard, ...rest } = joined;
  const { missing: sectionsMissing, leaderboard: _, ...sectionsRest } = sections;
  expect(rest).toEqual(sectionsRest);
  expect(leaderboard).toBeNull();
  expect(missing).toEqual([...(sectionsMissing ?? []), { section: "leaderboard", reason: ranked.reason }]);
  // The CLI's report, computed in one process, is the same join.
  expect(undated(reportData(deps, query)).missing).toEqual(missing);
});

it("appends the record's integrity check computed apart as the last check, as the sections list it", () => {
  const query = { bootstrap: 50, seed: 3 };
  const without = reportSections(deps, query, { integrity: false });
  expect(without.checks?.map((c) => c.name)).not.toContain("record_integrity");
  const check = recordIntegrityCheck(deps);
  expect(check).toEqual({ name: "record_integrity", ok: true, detail: "integrity_check: ok" });
  expect(undated(withIntegrityCheck(without, check))).toEqual(undated(reportSections(deps, query)));
});
