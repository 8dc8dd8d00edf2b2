import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StudyDesignSchema } from "../../src/domain/study-design.js";
import { registerStudy } from "../../src/play/studies.js";
import { tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

const design = {
  name: "d1",
  games: ["prisoners-dilemma", "snowdrift"],
  framings: ["business", "friend-sharing"],
  trials_per_cell: 3,
  seed: 7,
  planned_contrasts: [{ baseline: "business", comparison: "friend-sharing" }],
};
const adaptive = { ...design, adaptive: { rule: "invariance" } };
const spelledOut = { ...design, adaptive: { rule: "invariance", test: "universal_inference" } };

// The hashes these designs were registered under before the default test was left out: a change that moved
// them would hand every existing study's file a second study.
const FIXED_HASH = "b6e1127964b9ccaf1766986130d56c86945772bc862a5ef9c6899738608a4d21";
const ADAPTIVE_HASH = "f1992dda8f25eb340ec441a0857e3cae4636992538ca67935d7e36b5de25eb83";
const SPELLED_OUT_HASH = "3a8860d155cb6a45b3c1a84b878df31826acf9e6fb0939ada0385cd6f9d06f83";

describe("the default adaptive.test", () => {
  it("leaves the hashes of designs without it as they were", () => {
    expect(registerStudy(deps, design).design_hash).toBe(FIXED_HASH);
    expect(registerStudy(deps, adaptive).design_hash).toBe(ADAPTIVE_HASH);
  });

  it("spelt out, is the same design: the same study, frozen without it", () => {
    const first = registerStudy(deps, adaptive);
    const again = registerStudy(deps, spelledOut);
    expect(again).toMatchObject({ study_id: first.study_id, design_hash: ADAPTIVE_HASH, created: false });
    const fresh = tempDeps();
    try {
      const alone = registerStudy(fresh, spelledOut);
      expect(alone.design_hash).toBe(ADAPTIVE_HASH);
      expect(JSON.parse(fresh.store.getStudy(alone.study_id)?.design_json ?? "{}").adaptive).toEqual({
        rule: "invariance",
        alpha: 0.05,
        look_every_blocks: 1,
        min_blocks: 1,
      });
    } finally {
      fresh.dispose();
    }
  });

  it("finds a study registered under the spelt-out hash, from either spelling", () => {
    // As an earlier version froze the spelt-out design: as written, under its own hash.
    const earlier = {
      id: "study-0123456789ab",
      name: "d1",
      design_json: JSON.stringify(StudyDesignSchema.parse(spelledOut)),
      design_hash: SPELLED_OUT_HASH,
      seed: "7",
      created_at: "2024-01-01T00:00:00.000Z",
      principal: "local",
    };
    deps.store.insertStudy(earlier);
    for (const input of [spelledOut, adaptive]) {
      expect(registerStudy(deps, input)).toMatchObject({
        study_id: earlier.id,
        design_hash: SPELLED_OUT_HASH,
        created: false,
      });
    }
    expect(deps.store.listStudies()).toHaveLength(1);
  });
});
