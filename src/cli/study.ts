import { ZodError } from "zod";
import type { AdaptiveStopping } from "../domain/adaptive/adaptive-design.js";
import { intervalText, stopWords } from "../domain/adaptive/adaptive-stops.js";
import { loadCatalog } from "../domain/catalog.js";
import { issueToName } from "../domain/known-keys.js";
import { opponentLabel } from "../domain/opponent-label.js";
import { readImportFile } from "../imports/import-file.js";
import { checkedDesign, registerStudy } from "../play/studies.js";
import { printable, utcSeconds } from "../queries/format.js";
import { outsideCatalogNames } from "../queries/outside-catalog.js";
import { spendCellName, spendLine, spendSummary } from "../queries/spend-query.js";
import { type StudyProgress, studyOverview, studyProgress } from "../queries/study-progress-query.js";
import { UsageError } from "../usage-error.js";
import type { Command, ParsedArgs } from "./command.js";
import { printResult, withDeps } from "./open-deps.js";

type Action = (args: ParsedArgs, rest: string[]) => Promise<void>;

/** `study register FILE.json`: the register_study design from a file; prints its id and design hash. */
async function register(args: ParsedArgs, [file, ...extra]: string[]): Promise<void> {
  if (!file) throw new UsageError("study register needs a design file: same-game study register FILE.json.");
  refuseExtra("register", extra);
  let design: unknown;
  try {
    design = JSON.parse(readImportFile(file, { reads: "study register reads a JSON design" }));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}.`);
  }
  // Checked before the record is opened: a refused design must not leave a new, empty record behind.
  const catalog = loadCatalog();
  designErrors(file, () => checkedDesign({ catalog }, design));
  await withDeps(
    args,
    (deps) => {
      const study = designErrors(file, () => registerStudy(deps, design));
      printResult(
        args,
        study,
        `${study.study_id} ${study.design_hash}\n${study.created ? "registered" : "already registered"}: ${printable(study.name)} (${study.cells} cells, ${study.trials_per_player} trials per player)`,
      );
    },
    { create: true, catalog },
  );
}

async function list(args: ParsedArgs, extra: string[]): Promise<void> {
  refuseExtra("list", extra);
  await withDeps(args, (deps) => {
    const studies = studyOverview(deps);
    const lines = studies.map(
      (s) =>
        `${s.study_id}  ${utcSeconds(s.created_at)}  ${String(s.cells ?? "?").padStart(3)} cells  ${String(s.trials_per_player ?? "?").padStart(6)} trials/player  ${s.players} player(s)  ${printable(s.name)}`,
    );
    const outside = studies.flatMap((s) => (s.outside_catalog ? [s.outside_catalog] : []));
    if (outside.length > 0) {
      const all = {
        games: [...new Set(outside.flatMap((o) => o.games))].sort(),
        framings: [...new Set(outside.flatMap((o) => o.framings))].sort(),
      };
      lines.push(
        `? cells: the design names ${outsideCatalogNames(all)}, not in the loaded catalog; pass --catalog DIR, the folder it was registered with.`,
      );
    }
    printResult(args, { studies }, lines.length > 0 ? lines.join("\n") : "No studies registered yet.");
  });
}

async function show(args: ParsedArgs, [id, ...extra]: string[]): Promise<void> {
  if (!id) throw new UsageError("study show needs a study id (see same-game study list).");
  refuseExtra("show", extra);
  await withDeps(args, (deps) => {
    const progress = studyProgress(deps, id);
    const header = [
      `${progress.study_id}: ${printable(progress.name)}`,
      `design hash ${progress.design_hash}; ${progress.cells.length} cells × ${progress.design.trials_per_cell} trials = ${progress.trials_per_player} trials per player`,
      `design: ${JSON.stringify(progress.design)}`,
    ];
    const players = progress.players.map(
      (p) =>
        `player ${printable(p.player)}: ${p.finished}/${progress.trials_per_player} finished, ${p.open} open${roundsWithoutDecision(p)}`,
    );
    const cells = progress.cells.map(
      (c) =>
        `  ${c.game} ${c.variant} ${c.framing} ${c.style} ${opponentLabel(c.opponent, c.opponent_params)}: ${
          Object.entries(c.finished)
            .map(([player, n]) => `${printable(player)} ${n}/${progress.design.trials_per_cell}`)
            .join(", ") || "no trials yet"
        }`,
    );
    const spend = spendSummary(deps.store, progress.study_id);
    // Only a record with runner calls has a spend to show: a host agent's play costs the record nothing.
    const spent = spend
      ? [
          "spend (model calls of same-game run):",
          ...spend.cells.map(
            (c) => `  ${spendCellName(c, printable)} ${c.game} ${c.framing}: ${spendLine(c)}`,
          ),
          `  total: ${spendLine(spend.total)}`,
        ]
      : [];
    printResult(
      args,
      spend ? { ...progress, spend } : progress,
      [...header, ...players, ...adaptiveLines(progress), "cells:", ...cells, ...spent].join("\n"),
    );
  });
}

/** "; 6 rounds void (no valid reply)": the rounds of a player's trials no analysis can count, when any. */
function roundsWithoutDecision(player: { void: number; forfeit: number }): string {
  const parts = [
    player.void > 0 ? `${player.void} round${player.void === 1 ? "" : "s"} void (no valid reply)` : "",
    player.forfeit > 0 ? `${player.forfeit} round${player.forfeit === 1 ? "" : "s"} forfeit` : "",
  ].filter((part) => part !== "");
  return parts.length === 0 ? "" : `; ${parts.join(", ")}`;
}

/** Under adaptive stopping, where each player's games stand: stopped early (where and why) or still going. */
function adaptiveLines(progress: StudyProgress): string[] {
  const rule = progress.design.adaptive;
  if (!rule) return [];
  const lines = [
    `adaptive stopping: rule ${rule.rule}, alpha ${rule.alpha} (${ruleText(rule)}), a look every ${rule.look_every_blocks} block(s) from block ${rule.min_blocks}; a block = one trial of every cell`,
  ];
  for (const { player, principal, games } of progress.adaptive) {
    const who = printable(principal === "local" ? player : `${player} (${principal})`);
    for (const g of games) {
      const state = g.stopped
        ? `${stopWords(g.stopped.block, progress.design.trials_per_cell)}: ${g.stopped.reason}; played ${g.stopped.blocks_played} of ${progress.design.trials_per_cell} blocks`
        : `not stopped: ${g.complete_blocks} complete block(s)${g.last_look ? `, e = ${g.last_look.e_value.toFixed(2)} at the last look` : ""}${g.r_interval ? `, ${intervalText(g.r_interval, rule.alpha)}` : ""}`;
      lines.push(`  ${who} ${g.game}: ${state}`);
    }
  }
  return lines;
}

/** When the rule stops: "stop at e ≥ 20", "stop once R's interval is narrower than 0.2", or either. */
function ruleText(rule: AdaptiveStopping): string {
  const e = `stop at e ≥ ${Number((1 / rule.alpha).toPrecision(4))}`;
  const width = `stop once R's anytime-valid interval is narrower than ${rule.width_target}`;
  if (rule.rule === "invariance") return e;
  return rule.rule === "width" ? width : `${e} or ${width.slice(5)}`;
}

const ACTIONS: Record<string, Action> = { register, list, show };

export const studyCommand: Command = {
  name: "study",
  usage: "same-game study register FILE.json | list | show ID [--db PATH] [--json]",
  options: { db: { type: "string" }, json: { type: "boolean" } },
  async run(args) {
    const [action, ...rest] = args.positionals;
    const run = action ? ACTIONS[action] : undefined;
    if (!run) {
      throw new UsageError(`study needs one of ${Object.keys(ACTIONS).join(", ")}, got "${action ?? ""}".`);
    }
    await run(args, rest);
  },
};

function refuseExtra(action: string, extra: string[]): void {
  if (extra.length > 0) throw new UsageError(`study ${action}: unexpected "${extra.join(" ")}".`);
}

/** A design the catalog or the schema refuses is the user's to fix: one line naming the bad field. */
function designErrors<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ZodError) {
      const issue = issueToName(error);
      const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
      throw new UsageError(`${file}: ${where}${issue?.message ?? error.message}`);
    }
    if (error instanceof UsageError || (error instanceof Error && error.name === "Error")) {
      throw new UsageError(`${file}: ${error.message}`);
    }
    throw error;
  }
}
