import { loadCatalog } from "../../domain/catalog.js";
import { loadStudy, schedulePosition } from "../../play/studies.js";
import type { Store } from "../../store/store.js";
import type { EarlierSpend } from "./budget.js";
import type { ModelPrice } from "./prices.js";

/** Where a player stood in a study before a run: its size, the trials finished, and what they cost. */
export interface RecordStanding {
  readonly before: {
    readonly trialsPerPlayer: number;
    readonly finished: number;
    /** The trials the player will play as things stand: under adaptive stopping, less what its stops removed. */
    readonly trialsPlanned: number;
    /** The games adaptive stopping ended early for the player, with why. */
    readonly stoppedEarly: readonly { readonly game: string; readonly reason: string }[];
  };
  readonly earlier: EarlierSpend;
}

/**
 * Reads the player's standing from the record (`--db`): the study's size and the player's finished trials
 * as `study show` counts them, what adaptive stopping left of the schedule, and the endpoint calls earlier runs made for it, which its budget counts
 * (a call recorded without a price at `price`, the seat's price now).
 * An unknown study id is the caller's UnknownStudyError.
 */
export function recordStanding(
  store: Store,
  studyId: string,
  player: string,
  price: ModelPrice | null,
): RecordStanding {
  const deps = { store, catalog: loadCatalog() };
  const { study, design, cells } = loadStudy(deps, studyId);
  const finished = store
    .studyTrialCounts(study.id)
    .filter((row) => row.player === player)
    .reduce((sum, row) => sum + Number(row.finished), 0);
  const spend = store.playerSpend(study.id, player, price);
  // The server the runner spawns on this record plays for its own principal, "local".
  const position = schedulePosition(deps, study, design, cells, player, "local");
  return {
    before: {
      trialsPerPlayer: cells.length * design.trials_per_cell,
      finished,
      trialsPlanned: position.trials_planned,
      stoppedEarly: position.stopped_early.map(({ game, reason }) => ({ game, reason })),
    },
    earlier: {
      spent: { calls: spend.calls, tokens: spend.tokens, costUsd: spend.cost_usd },
      unreported: spend.unreported,
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
