import { RunnerBatchStore } from "./runner-batch-store.js";

/** What a runner's model calls cost in one (player, game, framing) cell of the record. */
export interface SpendCellRow {
  readonly player: string;
  readonly game: string;
  readonly framing: string;
  /** Requests the endpoint answered (directly or in a batch); replies from the cache are not calls. */
  readonly calls: number;
  /** Of those, the ones answered in a provider batch. */
  readonly batched: number;
  /** Replies reused from the response cache (no request, no cost). */
  readonly cached: number;
  /** Tokens of the requests the endpoint answered (what was paid for). */
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  /** USD at the run's --prices table; null when no call of the cell was priced. */
  readonly cost_usd: number | null;
  /** Calls with a recorded price (a cell priced only in part says so). */
  readonly priced: number;
}

/** Spend per cell, summed from `model_calls` (migrations 003, 013, 016). */
export class SpendReads extends RunnerBatchStore {
  /** The runner's spend per (player, game, framing), of one study or the whole record; [] without runner calls. */
  spendPerCell(studyId: string | null): SpendCellRow[] {
    const rows = this.stmt(
      `SELECT m.player, m.game, m.framing,
              sum(CASE WHEN c.cached_from IS NULL THEN 1 ELSE 0 END) AS calls,
              sum(CASE WHEN c.batch_id IS NOT NULL THEN 1 ELSE 0 END) AS batched,
              sum(CASE WHEN c.cached_from IS NOT NULL THEN 1 ELSE 0 END) AS cached,
              sum(CASE WHEN c.cached_from IS NULL THEN coalesce(c.prompt_tokens, 0) ELSE 0 END) AS prompt_tokens,
              sum(CASE WHEN c.cached_from IS NULL THEN coalesce(c.completion_tokens, 0) ELSE 0 END) AS completion_tokens,
              sum(c.cost_usd) AS cost_usd,
              count(c.cost_usd) AS priced
       FROM model_calls c JOIN matches m ON m.id = c.match_id
       WHERE (CAST(@study_id AS TEXT) IS NULL OR m.study_id = @study_id)
       GROUP BY m.player, m.game, m.framing
       ORDER BY m.player, m.game, m.framing`,
    ).all({ study_id: studyId }) as Record<string, unknown>[];
    // PostgreSQL returns sums of BIGINT as text: every count is made a number here.
    return rows.map((r) => ({
      player: String(r.player),
      game: String(r.game),
      framing: String(r.framing),
      calls: Number(r.calls),
      batched: Number(r.batched),
      cached: Number(r.cached),
      prompt_tokens: Number(r.prompt_tokens),
      completion_tokens: Number(r.completion_tokens),
      cost_usd: r.cost_usd === null || r.cost_usd === undefined ? null : Number(r.cost_usd),
      priced: Number(r.priced),
    }));
  }
}
