import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type Catalog, UnknownCatalogIdError } from "../domain/catalog.js";
import { issueToName } from "../domain/known-keys.js";
import type { ActionId } from "../domain/types.js";
import { VARIANT_IDS } from "../domain/types.js";
import { roundPayoffs } from "../play/match-engine.js";
import type { PlayDeps } from "../play/play-deps.js";
import { shellWord } from "../queries/shell-word.js";
import type { DecisionRecord, MatchRecord } from "../store/records.js";
import { textProblem } from "../store/well-formed-text.js";
import { UsageError } from "../usage-error.js";
import { IMPORT_FORMATS } from "./import-file.js";
import { importedFramingProblem } from "./imported-framing.js";

// Games played elsewhere (DESIGN.md `import matches`): one JSON object per line, canonical action
// ids, validated against the catalog so the same metrics code measures them. Game and variant must exist
// because the metrics read their payoffs; framing and opponent are free provenance labels.

/** What an imported match records where live play would record a prompt setting it never had. */
const NOT_RECORDED = "unspecified";

// A label the record can hold on either engine: no NUL (PostgreSQL text cannot), no lone surrogate.
const label = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem.replace(/\.$/, "") });
  });

/**
 * The session a match was played in (a conversation id, an epoch), scoped to the import and player: matches
 * of one player with the same label are one session (across games and framings too), resampled whole by the
 * analyses as a live MCP session is. Absent or null: the match's decisions are each their own.
 */
const session = label
  .refine((value) => !/\p{Cc}/u.test(value), "a session label holds no control characters")
  .nullable()
  .optional();

const ImportedRoundSchema = z.strictObject({
  move: z.string().nullable(),
  opponent_move: z.string().nullable(),
  payoff: z.number(),
  opponent_payoff: z.number(),
  tokens: z.number().int().min(0).max(1e9).nullable().optional(),
  /** Replies that chose no valid action before the round's move (or before it was void); absent = 0. */
  invalid_attempts: z.number().int().min(0).max(1e9).optional(),
});

const ImportedMatchSchema = z.strictObject({
  player: label,
  game: label,
  variant: z.enum(VARIANT_IDS),
  framing: label.optional(),
  opponent: label,
  session,
  rounds: z.array(ImportedRoundSchema).min(1).max(10_000),
});

export type ImportedMatch = z.infer<typeof ImportedMatchSchema> & { line: number };

/**
 * Parses and validates a JSONL file of match transcripts. All or nothing: the first bad line is reported
 * with its line number (and round, for a round that contradicts the catalog) and nothing is returned.
 */
export function parseMatchesJsonl(text: string, fileLabel: string, catalog: Catalog): ImportedMatch[] {
  const matches: ImportedMatch[] = [];
  // A byte-order mark (Windows editors, Excel's "UTF-8" export) is not part of the first object.
  for (const [index, raw] of text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .entries()) {
    if (raw.trim() === "") continue;
    const where = `${fileLabel}: line ${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      // A first line that does not even open an object is likely another format (CSV counts, say).
      const formats = matches.length === 0 && !/^\s*[{[]/.test(raw) ? `; ${IMPORT_FORMATS}` : "";
      throw new UsageError(`${where}: not a JSON object (${raw.slice(0, 60)})${formats}.`);
    }
    const parsed = ImportedMatchSchema.safeParse(json);
    if (!parsed.success) {
      const issue = issueToName(parsed.error);
      throw new UsageError(`${where}: ${issue?.path.join(".") || "line"}: ${issue?.message}.`);
    }
    checkAgainstCatalog(parsed.data, catalog, where);
    matches.push({ ...parsed.data, line: index + 1 });
  }
  if (matches.length === 0) throw new UsageError(`${fileLabel}: no match lines.`);
  return matches;
}

function checkAgainstCatalog(match: z.infer<typeof ImportedMatchSchema>, catalog: Catalog, where: string) {
  const inCatalog = <T>(lookup: () => T): T => {
    try {
      return lookup();
    } catch (error) {
      // An exported record of a user's games names them: importing it needs the catalog they came from.
      const own = error instanceof UnknownCatalogIdError && error.entry === "game";
      const hint = own ? " A game of your own needs its catalog: pass --catalog DIR." : "";
      throw new UsageError(`${where}: ${error instanceof Error ? error.message : String(error)}${hint}`);
    }
  };
  const game = inCatalog(() => catalog.game(match.game));
  inCatalog(() => catalog.variant(match.game, match.variant));
  if (match.framing !== undefined) {
    const framingProblem = importedFramingProblem(catalog, match.game, match.variant, match.framing, true);
    if (framingProblem !== null) throw new UsageError(`${where}: ${framingProblem}`);
  }
  if (match.rounds.length !== game.rounds) {
    throw new UsageError(
      `${where}: ${match.rounds.length} round(s), but ${game.id} is played over ${game.rounds}.`,
    );
  }
  const stage = catalog.stageGame(match.game, match.variant);
  for (const [r, round] of match.rounds.entries()) {
    for (const [key, action] of [
      ["move", round.move],
      ["opponent_move", round.opponent_move],
    ] as const) {
      if (action !== null && !game.actions.includes(action)) {
        throw new UsageError(
          `${where}: round ${r + 1}: ${key} "${action}" is not an action of ${game.id} (${game.actions.join(", ")}, or null for an invalid round).`,
        );
      }
    }
    const expected = roundPayoffs(stage, round.move, round.opponent_move);
    for (const key of ["payoff", "opponent_payoff"] as const) {
      if (round[key] !== expected[key]) {
        const profile =
          round.move === null || round.opponent_move === null
            ? "an invalid round (0 for both)"
            : `(${round.move}, ${round.opponent_move})`;
        throw new UsageError(
          `${where}: round ${r + 1}: ${key} ${round[key]} differs from ${game.id} (${match.variant})'s ${expected[key]} for ${profile}.`,
        );
      }
    }
  }
}

/** A source label that was imported before: importing it again would count its matches twice. */
export function checkNewSource(deps: PlayDeps, source: string): void {
  const existing = deps.store.countImportedMatches(source);
  if (existing > 0) {
    throw new UsageError(
      `Source "${source}" was already imported (${existing} matches); pass another --source label, or take the first out with same-game import remove --source ${shellWord(source)}.`,
    );
  }
}

/**
 * Stores validated matches under `source`, in one transaction, as finished matches with their decisions.
 * Their ids sort in file order, so the record lists them as the file did.
 */
export function importMatches(deps: PlayDeps, matches: readonly ImportedMatch[], source: string): number {
  const batch = randomBytes(6).toString("hex");
  const now = deps.store.nowIso();
  return deps.store.transaction(() => {
    checkNewSource(deps, source);
    for (const imported of matches) {
      const match = importedMatchRecord(
        deps.catalog,
        imported,
        source,
        `imp-${batch}-${String(imported.line).padStart(7, "0")}`,
        now,
      );
      deps.store.insertMatch(match);
      for (const [r, round] of imported.rounds.entries())
        deps.store.saveDecision(importedDecision(match.id, r + 1, round, now), match);
    }
    return matches.length;
  });
}

function importedMatchRecord(
  catalog: Catalog,
  imported: ImportedMatch,
  source: string,
  id: string,
  at: string,
): MatchRecord {
  const game = catalog.game(imported.game);
  return {
    id,
    study_id: null,
    trial_index: null,
    player: imported.player,
    session_id: null,
    principal: "local",
    game: game.id,
    variant: imported.variant,
    framing: imported.framing ?? NOT_RECORDED,
    style: NOT_RECORDED,
    // The file does not say how the choices were shown, the opponent's parameters or whether the horizon
    // was revealed. These columns take no null, so they hold placeholders that nothing reads for an
    // imported match: the exports write them as null, the order effect counts live play only.
    action_order: [...game.actions],
    opponent: imported.opponent,
    opponent_params: {},
    history_mode: NOT_RECORDED,
    reveal_horizon: false,
    rounds: game.rounds,
    partner_match_id: null,
    seed: `${source}:line ${imported.line}`,
    status: "finished",
    next_round: game.rounds + 1,
    source,
    import_session: imported.session ?? null,
    created_at: at,
    finished_at: at,
  };
}

function importedDecision(
  matchId: string,
  round: number,
  imported: ImportedMatch["rounds"][number],
  at: string,
): DecisionRecord {
  const move: ActionId | null = imported.move;
  return {
    match_id: matchId,
    round,
    session_id: null,
    raw_text: null,
    action: move,
    rationale: null,
    tokens: imported.tokens ?? null,
    opponent_action: imported.opponent_move,
    payoff: imported.payoff,
    opponent_payoff: imported.opponent_payoff,
    invalid_attempts: imported.invalid_attempts ?? 0,
    status: move === null ? "void" : "decided",
    decided_at: at,
  };
}
