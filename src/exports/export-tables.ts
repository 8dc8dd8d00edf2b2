import type { DecisionRecord, MatchRecord, RecordFilter } from "../store/records.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import type { TableSchema } from "./parquet-writer.js";

// The record written out for pandas, R and re-import (docs/import-export.md, "Export the record", documents each column).
// One table per kind; CSV and JSONL carry the same columns, except `matches` as JSONL, which is exactly
// the `import matches` format so export → import round-trips. `counts` is the `import counts` format.

export const EXPORT_KINDS = ["decisions", "matches", "attempts", "model-calls", "studies", "counts"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export type ExportFormat = "csv" | "jsonl" | "parquet";

// Each table's columns in order with their one Parquet type (docs/import-export.md lists them): whole
// numbers INT64, measures DOUBLE, flags BOOLEAN, and text, ids, JSON lists and objects and ISO-8601 times
// STRING; every column nullable. The CSV and JSONL carry the same columns.

export const DECISION_SCHEMA = {
  match_id: "STRING",
  round: "INT64",
  player: "STRING",
  game: "STRING",
  variant: "STRING",
  framing: "STRING",
  style: "STRING",
  action_order: "STRING",
  opponent: "STRING",
  opponent_params: "STRING",
  history_mode: "STRING",
  reveal_horizon: "BOOLEAN",
  rounds: "INT64",
  study_id: "STRING",
  trial_index: "INT64",
  seed: "STRING",
  source: "STRING",
  session_id: "STRING",
  client_name: "STRING",
  client_version: "STRING",
  transport: "STRING",
  status: "STRING",
  action: "STRING",
  opponent_action: "STRING",
  payoff: "DOUBLE",
  opponent_payoff: "DOUBLE",
  raw_text: "STRING",
  rationale: "STRING",
  tokens: "INT64",
  invalid_attempts: "INT64",
  decided_at: "STRING",
  prompt_hash: "STRING",
  prompt: "STRING",
  server_version: "STRING",
  catalog_fingerprint: "STRING",
} as const satisfies TableSchema;

export const MATCH_SCHEMA = {
  match_id: "STRING",
  player: "STRING",
  game: "STRING",
  variant: "STRING",
  framing: "STRING",
  style: "STRING",
  action_order: "STRING",
  opponent: "STRING",
  opponent_params: "STRING",
  rounds: "INT64",
  rounds_played: "INT64",
  total_points: "DOUBLE",
  status: "STRING",
  study_id: "STRING",
  trial_index: "INT64",
  seed: "STRING",
  source: "STRING",
  session: "STRING",
  created_at: "STRING",
  finished_at: "STRING",
} as const satisfies TableSchema;

export const ATTEMPT_SCHEMA = {
  attempt_id: "INT64",
  match_id: "STRING",
  round: "INT64",
  player: "STRING",
  game: "STRING",
  variant: "STRING",
  framing: "STRING",
  session_id: "STRING",
  raw_text: "STRING",
  action: "STRING",
  invalid_reason: "STRING",
  tokens: "INT64",
  created_at: "STRING",
} as const satisfies TableSchema;

/** The runner's per-call log (db/003_model_calls.sql says what each column holds). */
export const MODEL_CALL_SCHEMA = {
  call_id: "INT64",
  attempt_id: "INT64",
  match_id: "STRING",
  round: "INT64",
  seq: "INT64",
  player: "STRING",
  game: "STRING",
  variant: "STRING",
  framing: "STRING",
  provider: "STRING",
  requested_model: "STRING",
  reported_model: "STRING",
  mode: "STRING",
  style: "STRING",
  sample_index: "INT64",
  decoding_json: "STRING",
  prompt_tokens: "INT64",
  completion_tokens: "INT64",
  latency_ms: "DOUBLE",
  retries: "INT64",
  finish_reason: "STRING",
  raw_reply: "STRING",
  called_at: "STRING",
  /** When the reply was first obtained, for a reply the cache gave (no endpoint request, no cost). */
  cached_from: "STRING",
  /** The provider batch that answered the request, for a call made through `run --batch`. */
  batch_id: "STRING",
  /** The call's cost at the `--prices` table (0 for a cached reply), null for a call made without one. */
  cost_usd: "DOUBLE",
} as const satisfies TableSchema;

/** Exactly the columns `import counts` reads, so a record's one-shot counts move to another record. */
export const COUNT_SCHEMA = {
  player: "STRING",
  game: "STRING",
  variant: "STRING",
  framing: "STRING",
  session: "STRING",
  action: "STRING",
  count: "INT64",
} as const satisfies TableSchema;

export const STUDY_SCHEMA = {
  study_id: "STRING",
  name: "STRING",
  design_hash: "STRING",
  seed: "STRING",
  created_at: "STRING",
  design_json: "STRING",
} as const satisfies TableSchema;

export interface ExportTable {
  /** The columns in order with their Parquet types: one declaration per table, whatever the rows hold. */
  schema: TableSchema;
  rows: Record<string, unknown>[];
  /** For JSONL when it differs from the rows (matches: the import format). */
  jsonl?: unknown[];
}

/**
 * What an imported transcript does not say (the import format has no such fields): how the choices were
 * shown, the opponent's parameters, whether the horizon was revealed. The record holds placeholders there
 * (its columns take no null); an export says unknown. Style and history mode are "unspecified" already.
 */
const NOT_IMPORTED = { action_order: null, opponent_params: null, reveal_horizon: null } as const;

/** The rows of one export kind that pass the filter. */
export function exportTable(store: Store, kind: ExportKind, filter: RecordFilter): ExportTable {
  switch (kind) {
    case "decisions":
      return {
        schema: DECISION_SCHEMA,
        rows: store.exportDecisions(filter).map((row) =>
          row.source === null
            ? {
                ...row,
                action_order: JSON.parse(row.action_order as string) as string[],
                opponent_params: JSON.parse(row.opponent_params as string) as Record<string, unknown>,
                reveal_horizon: row.reveal_horizon === 1,
              }
            : { ...row, ...NOT_IMPORTED },
        ),
      };
    case "attempts":
      return { schema: ATTEMPT_SCHEMA, rows: store.exportAttempts(filter) };
    case "model-calls":
      return { schema: MODEL_CALL_SCHEMA, rows: store.exportModelCalls(filter) };
    case "studies":
      return {
        schema: STUDY_SCHEMA,
        rows: store
          .listStudies()
          .filter((s) => filter.study_id === undefined || s.id === filter.study_id)
          .map(({ id, name, design_hash, seed, created_at, design_json }) => ({
            study_id: id,
            name,
            design_hash,
            seed,
            created_at,
            design_json,
          })),
      };
    case "matches":
      return matchesTable(store, filter);
    case "counts":
      return { schema: COUNT_SCHEMA, rows: countsBySession(store, filter) };
    default:
      throw new UsageError(`Unknown export "${String(kind)}"; exports: ${EXPORT_KINDS.join(", ")}.`);
  }
}

function matchesTable(store: Store, filter: RecordFilter): ExportTable {
  const rows: Record<string, unknown>[] = [];
  const jsonl: unknown[] = [];
  for (const match of store.listMatches(filter)) {
    const decisions = store.listDecisions(match.id).filter((d) => d.status !== "pending");
    rows.push({
      match_id: match.id,
      player: match.player,
      game: match.game,
      variant: match.variant,
      framing: match.framing,
      style: match.style,
      action_order: match.source === null ? match.action_order : NOT_IMPORTED.action_order,
      opponent: match.opponent,
      // One opponent id with other params is another opponent: a table grouped by opponent needs them.
      opponent_params: match.source === null ? match.opponent_params : NOT_IMPORTED.opponent_params,
      rounds: match.rounds,
      rounds_played: decisions.length,
      total_points: decisions.reduce((sum, d) => sum + (d.payoff ?? 0), 0),
      status: match.status,
      study_id: match.study_id,
      trial_index: match.trial_index,
      seed: match.seed,
      source: match.source,
      session: matchSession(match, decisions),
      created_at: match.created_at,
      finished_at: match.finished_at,
    });
    // Every finished match, whatever catalog is loaded now: the file is the record's play, as the CSV
    // rows are; a user's game needs its --catalog again only when the file is imported.
    if (match.status !== "finished") continue;
    jsonl.push({
      player: match.player,
      game: match.game,
      variant: match.variant,
      framing: match.framing,
      opponent: match.opponent,
      ...(matchSession(match, decisions) === null ? {} : { session: matchSession(match, decisions) }),
      rounds: decisions.map((d) => ({
        move: d.action,
        opponent_move: d.opponent_action,
        payoff: d.payoff ?? 0,
        opponent_payoff: d.opponent_payoff ?? 0,
        ...(d.tokens === null ? {} : { tokens: d.tokens }),
        // Written only when there were any, so a record without invalid replies exports as files without
        // the field did (the shipped reference transcripts round-trip byte for byte).
        ...(d.invalid_attempts > 0 ? { invalid_attempts: d.invalid_attempts } : {}),
      })),
    });
  }
  return { schema: MATCH_SCHEMA, rows, jsonl };
}

/**
 * The session a match was played in: when live, the MCP session its moves were decided in (the session the
 * analyses resample), when imported, its session label. A live match's own session is only the one that
 * started it: the runner starts every trial from its one stdio session and plays each in a fresh one.
 */
function matchSession(match: MatchRecord, decisions: readonly DecisionRecord[]): string | null {
  if (match.source !== null) return match.import_session ?? null;
  return decisions.find((d) => d.session_id !== null)?.session_id ?? match.session_id;
}

/**
 * The one-shot counts the analyses read, per cell, session and action, in the `import counts` format:
 * a live decision's MCP session id, an imported one's session label (null for none). A label is scoped to
 * its import, so where two imports of one player used the same label it is written as "source / label"
 * (two sessions stay two when the file is imported). Decisions without a session of one cell and action
 * are one row, whichever import they came from.
 */
function countsBySession(store: Store, filter: RecordFilter): Record<string, unknown>[] {
  const rows = store.oneShotCountsBySession(filter);
  const importsOfLabel = new Map<string, Set<string>>();
  for (const row of rows) {
    if (row.kind === "live" || row.session === "") continue;
    const key = JSON.stringify([row.player, row.session]);
    const imports = importsOfLabel.get(key) ?? new Set<string>();
    imports.add(JSON.stringify([row.kind, row.source]));
    importsOfLabel.set(key, imports);
  }
  const counts = new Map<string, Record<string, unknown> & { count: number }>();
  for (const row of rows) {
    const shared = (importsOfLabel.get(JSON.stringify([row.player, row.session]))?.size ?? 0) > 1;
    const session = shared ? `${row.source} / ${row.session}` : row.session;
    const key = JSON.stringify([row.player, row.game, row.variant, row.framing, session, row.action]);
    const seen = counts.get(key);
    if (seen) seen.count += row.count;
    else {
      const { player, game, variant, framing, action, count } = row;
      // No session is null, as every other absent value of an export (an empty CSV field, as before).
      counts.set(key, {
        player,
        game,
        variant,
        framing,
        session: session === "" ? null : session,
        action,
        count,
      });
    }
  }
  // In key order (player, game, variant, framing, session, action), whichever kind of record a row came from.
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
