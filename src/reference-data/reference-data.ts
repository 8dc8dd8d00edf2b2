import { existsSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";

/** What `import` reads a reference file as. */
export type ReferenceKind = "counts" | "matches";

/** A published data set shipped in the package's `data/` folder (data/README.md has the provenance). */
export interface ReferenceDataset {
  /** The `--reference` id, also the source label the rows are imported under. */
  readonly id: string;
  readonly kind: ReferenceKind;
  /** Path inside `data/`. */
  readonly file: string;
  /** One line of provenance, shown beside imported data in the report. */
  readonly citation: string;
}

export const REFERENCE_DATASETS: readonly ReferenceDataset[] = [
  {
    id: "lore-heydari-2024",
    kind: "counts",
    file: "lore-heydari-2024-business-vs-friend.csv",
    citation:
      "Lorè & Heydari, Scientific Reports 14 (2024): counts reconstructed from the published figures (300 per cell)",
  },
  {
    id: "llm-gm-thesis-2026",
    kind: "matches",
    file: "llm-gm-thesis/traces.jsonl",
    citation:
      "Evaluating Counterfactual Strategic Reasoning in LLMs (ACL 2026), dimjimitris/llm_gm_thesis (MIT): two game logs",
  },
  {
    id: "llm-gm-thesis-2026-invalid-rounds",
    kind: "matches",
    file: "llm-gm-thesis/invalid-rounds.jsonl",
    citation:
      "Evaluating Counterfactual Strategic Reasoning in LLMs (ACL 2026), dimjimitris/llm_gm_thesis @ 0282079 (MIT): the 20 game logs of four table cells with invalid rounds",
  },
];

/** The package's `data/` folder: beside dist/ in an install, beside src/ in a clone. */
export function referenceDataDirectory(): string {
  return join(packageRoot(), "data");
}

/** The data set `id` of this kind with its absolute path; a UsageError naming the valid ids otherwise. */
export function referenceDataset(id: string, kind: ReferenceKind): ReferenceDataset & { path: string } {
  const ofKind = REFERENCE_DATASETS.filter((d) => d.kind === kind);
  const dataset = ofKind.find((d) => d.id === id);
  if (!dataset) {
    throw new UsageError(
      `Unknown ${kind} reference "${id}"; references: ${ofKind.map((d) => d.id).join(", ")}.`,
    );
  }
  const path = join(referenceDataDirectory(), dataset.file);
  if (!existsSync(path)) {
    throw new UsageError(`The reference file ${path} is missing from this installation of same-game.`);
  }
  return { ...dataset, path };
}

/** The citation of a source label that is a shipped reference, else null (a user's own file). */
export function referenceCitation(source: string): string | null {
  return REFERENCE_DATASETS.find((d) => d.id === source)?.citation ?? null;
}
