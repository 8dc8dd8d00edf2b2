import { RunLeaseStore } from "./run-lease-store.js";

/** What a runner's model calls cost in one (player, game, framing) cell of the record. */
export interface SpendCellRow {
  /** The cell is the trial's: a second seat's calls are in its partner trial's cell. */
  readonly player: string;
  readonly game: string;
  readonly framing: string;
  /**
   * Null for the player's own calls; the label of the second seat (`--opponent-model`, in the agent seat
   * of the player's trials) for that seat's calls, which the study's spend counts with its trials.
   */
  readonly second_seat: string | null;
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
  /** Calls the endpoint reported no token usage for (or only part of it): their tokens are not in the sums. */
  readonly unreported: number;
}

/**
 * What one player's runner calls in one study cost so far (replies from the cache are not calls), with
 * the dearest call and the dearest finished trial: what a budget of the next run starts from.
 */
export interface PlayerSpendRow {
  readonly calls: number;
  readonly tokens: number;
  readonly cost_usd: number;
  /** Calls whose endpoint reported no token usage, or only part of it: their tokens and cost are unknown. */
  readonly unreported: number;
  readonly largest_call: { tokens: number; completion_tokens: number; cost_usd: number } | null;
  readonly largest_trial: { calls: number; tokens: number; cost_usd: number } | null;
}

/** Spend per cell, summed from `model_calls` (migrations 003, 013, 016). */
export class SpendReads extends RunLeaseStore {
  /**
   * The runner's spend per (player, game, framing), of one study or the whole record; [] without runner
   * calls. A second model's seat plays a partner match outside the study (no study id of its own): its
   * calls are counted in its partner trial's cell and study, on a row of their own naming the seat.
   */
  spendPerCell(studyId: string | null): SpendCellRow[] {
    const rows = this.stmt(
      `SELECT x.player, x.game, x.framing, x.second_seat,
              sum(CASE WHEN x.cached_from IS NULL THEN 1 ELSE 0 END) AS calls,
              sum(CASE WHEN x.batch_id IS NOT NULL THEN 1 ELSE 0 END) AS batched,
              sum(CASE WHEN x.cached_from IS NOT NULL THEN 1 ELSE 0 END) AS cached,
              sum(CASE WHEN x.cached_from IS NULL THEN coalesce(x.prompt_tokens, 0) ELSE 0 END) AS prompt_tokens,
              sum(CASE WHEN x.cached_from IS NULL THEN coalesce(x.completion_tokens, 0) ELSE 0 END) AS completion_tokens,
              sum(x.cost_usd) AS cost_usd,
              count(x.cost_usd) AS priced,
              sum(CASE WHEN x.cached_from IS NULL AND (x.prompt_tokens IS NULL OR x.completion_tokens IS NULL)
                  THEN 1 ELSE 0 END) AS unreported
       FROM (SELECT coalesce(t.player, s.player) AS player, coalesce(t.game, s.game) AS game,
                    coalesce(t.framing, s.framing) AS framing, coalesce(t.study_id, s.study_id) AS study_id,
                    CASE WHEN t.id IS NULL THEN NULL ELSE s.player END AS second_seat,
                    c.cached_from, c.batch_id, c.prompt_tokens, c.completion_tokens, c.cost_usd
             FROM model_calls c JOIN matches s ON s.id = c.match_id
             LEFT JOIN matches t ON t.id = s.partner_match_id AND s.study_id IS NULL AND t.study_id IS NOT NULL) x
       WHERE (CAST(@study_id AS TEXT) IS NULL OR x.study_id = @study_id)
       GROUP BY x.player, x.game, x.framing, x.second_seat
       ORDER BY x.player, x.game, x.framing, x.second_seat IS NOT NULL, x.second_seat`,
    ).all({ study_id: studyId }) as Record<string, unknown>[];
    // PostgreSQL returns sums of BIGINT as text: every count is made a number here.
    return rows.map((r) => ({
      player: String(r.player),
      game: String(r.game),
      framing: String(r.framing),
      second_seat: r.second_seat === null || r.second_seat === undefined ? null : String(r.second_seat),
      calls: Number(r.calls),
      batched: Number(r.batched),
      cached: Number(r.cached),
      prompt_tokens: Number(r.prompt_tokens),
      completion_tokens: Number(r.completion_tokens),
      cost_usd: r.cost_usd === null || r.cost_usd === undefined ? null : Number(r.cost_usd),
      priced: Number(r.priced),
      unreported: Number(r.unreported ?? 0),
    }));
  }

  /**
   * The spend of one player's endpoint calls in one study (a second seat's calls on its partner matches
   * included), over every principal, as `study show` counts the player's trials. `price` prices the calls
   * recorded without one.
   */
  playerSpend(
    studyId: string,
    player: string,
    price: { input_per_mtok: number; output_per_mtok: number } | null = null,
  ): PlayerSpendRow {
    // A second model's seat plays a partner match outside the study: its calls count with the trial's.
    const calls = `FROM matches m JOIN model_calls c ON c.match_id = m.id OR c.match_id = m.partner_match_id
       WHERE m.study_id = @study_id AND m.player = @player AND c.cached_from IS NULL`;
    const tokens = "coalesce(c.prompt_tokens, 0) + coalesce(c.completion_tokens, 0)";
    // A call recorded without a price (a run without --prices) costs its tokens at the price given now.
    const cost = `coalesce(c.cost_usd, (coalesce(c.prompt_tokens, 0) * CAST(@input AS DOUBLE PRECISION)
       + coalesce(c.completion_tokens, 0) * CAST(@output AS DOUBLE PRECISION)) / 1000000.0)`;
    const params = {
      study_id: studyId,
      player,
      input: price?.input_per_mtok ?? 0,
      output: price?.output_per_mtok ?? 0,
    };
    const total = this.stmt(
      `SELECT count(*) AS calls, coalesce(sum(${tokens}), 0) AS tokens, coalesce(sum(${cost}), 0) AS cost_usd,
              sum(CASE WHEN c.prompt_tokens IS NULL OR c.completion_tokens IS NULL THEN 1 ELSE 0 END) AS unreported,
              max(${tokens}) AS call_tokens, max(coalesce(c.completion_tokens, 0)) AS call_completion,
              max(${cost}) AS call_cost
       ${calls}`,
    ).get(params) as Record<string, unknown>;
    // A trial's spend is known only once it is finished: an open one may still call.
    const trial = this.stmt(
      `SELECT max(t.calls) AS calls, max(t.tokens) AS tokens, max(t.cost_usd) AS cost_usd
       FROM (SELECT count(*) AS calls, sum(${tokens}) AS tokens, coalesce(sum(${cost}), 0) AS cost_usd
             ${calls} AND m.status = 'finished' GROUP BY m.id) t`,
    ).get(params) as Record<string, unknown>;
    // PostgreSQL returns sums of BIGINT as text: every count is made a number here.
    const n = (value: unknown) => Number(value ?? 0);
    return {
      calls: n(total.calls),
      tokens: n(total.tokens),
      cost_usd: n(total.cost_usd),
      unreported: n(total.unreported),
      largest_call:
        n(total.calls) === 0
          ? null
          : {
              tokens: n(total.call_tokens),
              completion_tokens: n(total.call_completion),
              cost_usd: n(total.call_cost),
            },
      largest_trial:
        trial.calls === null || trial.calls === undefined
          ? null
          : { calls: n(trial.calls), tokens: n(trial.tokens), cost_usd: n(trial.cost_usd) },
    };
  }
}
