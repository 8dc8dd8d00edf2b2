import type { DecisionRecord, MatchRecord, RecordFilter } from "../store/records.js";
import type { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";

// The record written out for pandas, R and re-import (docs/import-export.md, "Export the record", documents each column).
// One table per kind; CSV and JSONL carry the same columns, except `matches` as JSONL, which is exactly
// the `import matches` format so export → import round-trips. `counts` is the `import counts` format.

export const EXPORT_KINDS = ["decisions", "matches", "attempts", "model-calls", "studies", "counts"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];
export type ExportFormat = "csv" | "jsonl" | "parquet";

export const DECISION_COLUMNS = [
  "match_id",
  "round",
  "player",
  "game",
  "variant",
  "framing",
  "style",
  "action_order",
  "opponent",
  "opponent_params",
  "history_mode",
  "reveal_horizon",
  "rounds",
  "study_id",
  "trial_index",
  "seed",
  "source",
  "session_id",
  "client_name",
  "client_version",
  "transport",
  "status",
  "action",
  "opponent_action",
  "payoff",
  "opponent_payoff",
  "raw_text",
  "rationale",
  "tokens",
  "invalid_attempts",
  "decided_at",
  "prompt_hash",
  "prompt",
  "server_version",
  "catalog_fingerprint",
] as const;

export const MATCH_COLUMNS = [
  "match_id",
  "player",
  "game",
  "variant",
  "framing",
  "style",
  "action_order",
  "opponent",
  "rounds",
  "rounds_played",
  "total_points",
  "status",
  "study_id",
  "trial_index",
  "seed",
  "source",
  "session",
  "created_at",
  "finished_at",
] as const;

export const ATTEMPT_COLUMNS = [
  "attempt_id",
  "match_id",
  "round",
  "player",
  "game",
  "variant",
  "framing",
  "session_id",
  "raw_text",
  "action",
  "invalid_reason",
  "tokens",
  "created_at",
] as const;

/** The runner's per-call log (db/003_model_calls.sql says what each column holds). */
export const MODEL_CALL_COLUMNS = [
  "call_id",
  "attempt_id",
  "match_id",
  "round",
  "seq",
  "player",
  "game",
  "variant",
  "framing",
  "provider",
  "requested_model",
  "reported_model",
  "mode",
  "style",
  "sample_index",
  "decoding_json",
  "prompt_tokens",
  "completion_tokens",
  "latency_ms",
  "retries",
  "finish_reason",
  "raw_reply",
  "called_at",
] as const;

/** Exactly the columns `import counts` reads, so a record's one-shot counts move to another record. */
export const COUNT_COLUMNS = ["player", "game", "variant", "framing", "session", "action", "count"] as const;

export const STUDY_COLUMNS = [
  "study_id",
  "name",
  "design_hash",
  "seed",
  "created_at",
  "design_json",
] as const;

export interface ExportTable {
  columns: readonly string[];
  rows: Record<string, unknown>[];
  /** For JSONL when it differs from the rows (matches: the import format). */
  jsonl?: unknown[];
}

/** The rows of one export kind that pass the filter. */
export function exportTable(store: Store, kind: ExportKind, filter: RecordFilter): ExportTable {
  switch (kind) {
    case "decisions":
      return {
        columns: DECISION_COLUMNS,
        rows: store.exportDecisions(filter).map((row) => ({
          ...row,
          action_order: JSON.parse(row.action_order as string) as string[],
          opponent_params: JSON.parse(row.opponent_params as string) as Record<string, unknown>,
          reveal_horizon: row.reveal_horizon === 1,
        })),
      };
    case "attempts":
      return { columns: ATTEMPT_COLUMNS, rows: store.exportAttempts(filter) };
    case "model-calls":
      return { columns: MODEL_CALL_COLUMNS, rows: store.exportModelCalls(filter) };
    case "studies":
      return {
        columns: STUDY_COLUMNS,
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
      return { columns: COUNT_COLUMNS, rows: countsBySession(store, filter) };
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
      action_order: match.action_order,
      opponent: match.opponent,
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
  return { columns: MATCH_COLUMNS, rows, jsonl };
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
 * a live decision's MCP session id, an imported one's session label ('' for none). A label is scoped to
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
      counts.set(key, { player, game, variant, framing, session, action, count });
    }
  }
  // In key order (player, game, variant, framing, session, action), whichever kind of record a row came from.
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
