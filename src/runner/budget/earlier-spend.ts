import { loadCatalog } from "../../domain/catalog.js";
import { loadStudy } from "../../play/studies.js";
import type { Store } from "../../store/store.js";
import type { EarlierSpend } from "./budget.js";
import type { ModelPrice } from "./prices.js";

/** Where a player stood in a study before a run: its size, the trials finished, and what they cost. */
export interface RecordStanding {
  readonly before: { readonly trialsPerPlayer: number; readonly finished: number };
  readonly earlier: EarlierSpend;
}

/**
 * Reads the player's standing from the record (`--db`): the study's size and the player's finished trials
 * as `study show` counts them, and the endpoint calls earlier runs made for it, which its budget counts
 * (a call recorded without a price at `price`, the seat's price now).
 * An unknown study id is the caller's UnknownStudyError.
 */
export function recordStanding(
  store: Store,
  studyId: string,
  player: string,
  price: ModelPrice | null,
): RecordStanding {
  const { study, design, cells } = loadStudy({ store, catalog: loadCatalog() }, studyId);
  const finished = store
    .studyTrialCounts(study.id)
    .filter((row) => row.player === player)
    .reduce((sum, row) => sum + Number(row.finished), 0);
  const spend = store.playerSpend(study.id, player, price);
  return {
    before: { trialsPerPlayer: cells.length * design.trials_per_cell, finished },
    earlier: {
      spent: { calls: spend.calls, tokens: spend.tokens, costUsd: spend.cost_usd },
      largestCall: spend.largest_call && {
        tokens: spend.largest_call.tokens,
        completionTokens: spend.largest_call.completion_tokens,
        costUsd: spend.largest_call.cost_usd,
      },
      largestTrial: spend.largest_trial && {
        calls: spend.largest_trial.calls,
        tokens: spend.largest_trial.tokens,
        costUsd: spend.largest_trial.cost_usd,
      },
    },
  };
}
