import { setTimeout as sleep } from "node:timers/promises";
import { callCost, type ModelPrice } from "./prices.js";

/** What a study may spend for one player: endpoint calls, tokens (prompt + completion), dollars. Unset: unlimited. */
export interface BudgetLimits {
  readonly calls?: number;
  readonly tokens?: number;
  readonly costUsd?: number;
}

export interface Spend {
  calls: number;
  tokens: number;
  costUsd: number;
}

/** The dearest endpoint call seen: its tokens, its reply's tokens, its cost. */
export interface CallSpend {
  readonly tokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
}

/**
 * What the record already holds for this player in this study (its earlier runs): counted against the
 * limits, and the dearest call and finished trial in it project what the next ones may cost.
 */
export interface EarlierSpend {
  readonly spent: Spend;
  /** Of the calls, those whose endpoint reported no token usage (or part of it): their tokens are unknown. */
  readonly unreported?: number;
  readonly largestCall: CallSpend | null;
  readonly largestTrial: Spend | null;
}

/** One request about to be made (or batched): its text, the most its reply may be, its seat's price. */
export interface CallEstimate {
  /** Characters of everything the request sends: system message, conversation and tool schemas. */
  readonly promptChars: number;
  /** `--max-tokens`: the longest reply the endpoint may give. */
  readonly maxCompletionTokens: number;
  readonly price: ModelPrice | null;
  /** Made through the provider's batch API, at its batch price. */
  readonly batch?: boolean;
}

/**
 * Characters per token assumed when a prompt's tokens are estimated before it is sent. English text
 * runs about four characters a token; three counts a prompt's tokens high, as a budget must.
 */
export const CHARS_PER_TOKEN_ESTIMATE = 3;

const zero = (): Spend => ({ calls: 0, tokens: 0, costUsd: 0 });

/**
 * The budget of a player in a study, kept so that it is never passed: the limits count what the record
 * already holds for the player (earlier runs) plus this run's calls. Each endpoint call is admitted only
 * when its conservative estimate fits beside what is spent and what the calls in flight may spend: the
 * dearest call seen in this study, or, before any, the request's prompt tokens (its characters ÷ 3) plus
 * `--max-tokens` of reply, at the seat's price — and never less than the prompt estimate with the longest
 * reply seen. A trial is admitted only when one more trial fits beside what is spent and what the trials
 * in play may still spend, a trial projected as the dearest finished trial of the study (before any, one
 * call of the dearest call seen, or, before any call, `--max-tokens` of reply at the output price), and
 * never below the largest estimate a call of this run was admitted on. Until a trial of this run has
 * finished, trials are admitted one at a time. A trial whose next call does not fit stops there, left
 * open for a run with a larger budget. Replies from the response cache cost nothing and are not endpoint
 * calls.
 */
export class Budget {
  /** This run's spend. */
  readonly spent: Spend = zero();
  private readonly inPlay = new Map<string, Spend>();
  private readonly inFlight = new Map<number, Spend>();
  private nextTicket = 0;
  private largestTrial: Spend | null;
  private largestCall: CallSpend | null;
  /** The largest estimate a call of this run was admitted on: a trial's projection is never below it. */
  private largestEstimate: Spend | null = null;
  private finishedThisRun = false;

  constructor(
    readonly limits: BudgetLimits,
    private readonly options: {
      /** The spend of earlier runs for this player in this study (none when unknown). */
      readonly earlier?: EarlierSpend;
      /** The least a trial's calls cost before anything is known: each seat's longest reply at its price. */
      readonly firstTrialFloor?: Spend;
      /** Every call is priced (`--prices`): without it a dollar amount would read as a false $0. */
      readonly priced?: boolean;
    } = {},
  ) {
    this.largestTrial = options.earlier?.largestTrial ?? null;
    this.largestCall = options.earlier?.largestCall ?? null;
  }

  /** What earlier runs of this player in this study spent, as the record holds it. */
  get before(): Spend {
    return this.options.earlier?.spent ?? zero();
  }

  /** Whether a limit needs the endpoint's token usage (tokens or dollars). */
  get countsTokens(): boolean {
    return this.limits.tokens !== undefined || this.limits.costUsd !== undefined;
  }

  get limited(): boolean {
    return (
      this.limits.calls !== undefined || this.limits.tokens !== undefined || this.limits.costUsd !== undefined
    );
  }

  /**
   * Admits a trial, waiting while the trial cost is still unknown and another is in play; false when one
   * more trial could pass a limit (the run then stops taking trials).
   */
  async admit(trial: string, stopped: () => boolean): Promise<boolean> {
    for (;;) {
      // A run stopped while this trial waited (another trial's call met the budget) admits nothing more.
      if (stopped()) return false;
      const answer = this.admitNow(trial);
      if (answer !== "wait") return answer === "admitted";
      await sleep(20);
    }
  }

  /**
   * Admits a trial now, or says why not: "wait" while the cost of a trial is still unknown and another is
   * in play (a batch then submits what it has), "full" when one more trial could pass a limit.
   */
  admitNow(trial: string): "admitted" | "wait" | "full" {
    if (!this.limited) {
      this.inPlay.set(trial, zero());
      return "admitted";
    }
    // Until a trial of this run has finished, what its calls are estimated at is unknown: one at a time.
    if (!this.finishedThisRun && this.inPlay.size > 0) return "wait";
    const projected = this.projectedTrial();
    // A trial in play may still spend up to the projection, beyond what it has spent already.
    const inPlay = [...this.inPlay.values()];
    const stillToSpend = (field: keyof Spend) =>
      inPlay.reduce((sum, s) => sum + Math.max(0, projected[field] - s[field]), 0);
    const oneMore: Spend = {
      calls: Math.max(projected.calls, 1) + stillToSpend("calls"),
      tokens: projected.tokens + stillToSpend("tokens"),
      costUsd: projected.costUsd + stillToSpend("costUsd"),
    };
    // The calls in flight belong to trials in play, whose projection already counts them.
    if (!this.fits(oneMore, false)) return "full";
    this.inPlay.set(trial, zero());
    return "admitted";
  }

  /**
   * Reserves one endpoint call when its estimate fits (a ticket for `endCall`), or null when the call could
   * pass a limit. The reservation holds until the call ends, so calls in flight at once cannot pass it together.
   */
  reserveCall(estimate: CallEstimate): number | null {
    const spend = this.callEstimate(estimate);
    // The first call's estimate holds the longest reply --max-tokens allows: no guide to a trial's cost.
    if (this.largestCall !== null) {
      this.largestEstimate = this.largestEstimate ? larger(this.largestEstimate, spend) : spend;
    }
    if (!this.fits(spend)) return null;
    const ticket = ++this.nextTicket;
    this.inFlight.set(ticket, spend);
    return ticket;
  }

  /** A reserved call ended (answered, and charged, or failed). */
  endCall(ticket: number | null): void {
    if (ticket !== null) this.inFlight.delete(ticket);
  }

  /** Whether spending `extra` beside what is spent, by earlier runs and this one (and in flight), passes no limit. */
  fits(extra: Spend, countInFlight = true): boolean {
    const inFlight = countInFlight ? [...this.inFlight.values()] : [];
    const total = (field: keyof Spend) =>
      this.before[field] + this.spent[field] + inFlight.reduce((sum, s) => sum + s[field], 0) + extra[field];
    const within = (field: keyof Spend, limit: number | undefined) =>
      limit === undefined || total(field) <= limit;
    return (
      within("calls", this.limits.calls) &&
      within("tokens", this.limits.tokens) &&
      within("costUsd", this.limits.costUsd)
    );
  }

  /**
   * The most one call may spend, as the budget counts it: the dearest call seen in this study, and never
   * less than the request's estimated prompt tokens with the longest reply seen (before any call, the
   * longest reply `--max-tokens` allows), at the seat's price.
   */
  callEstimate(estimate: CallEstimate): Spend {
    const prompt = Math.ceil(estimate.promptChars / CHARS_PER_TOKEN_ESTIMATE);
    const reply = this.largestCall?.completionTokens ?? estimate.maxCompletionTokens;
    const cost = estimate.price ? callCost(estimate.price, prompt, reply, estimate.batch === true) : 0;
    return {
      calls: 1,
      tokens: Math.max(this.largestCall?.tokens ?? 0, prompt + reply),
      costUsd: Math.max(this.largestCall?.costUsd ?? 0, cost),
    };
  }

  /** An endpoint call of a trial answered: its tokens and cost. */
  charge(trial: string, promptTokens: number, completionTokens: number, costUsd: number): void {
    const tokens = promptTokens + completionTokens;
    for (const spend of [this.spent, this.inPlay.get(trial)]) {
      if (!spend) continue;
      spend.calls++;
      spend.tokens += tokens;
      spend.costUsd += costUsd;
    }
    const largest = this.largestCall;
    this.largestCall = {
      tokens: Math.max(largest?.tokens ?? 0, tokens),
      completionTokens: Math.max(largest?.completionTokens ?? 0, completionTokens),
      costUsd: Math.max(largest?.costUsd ?? 0, costUsd),
    };
  }

  /** A trial left play; a finished one's spend enters the projection. */
  release(trial: string, finished: boolean): void {
    const spend = this.inPlay.get(trial);
    this.inPlay.delete(trial);
    if (!finished || !spend) return;
    this.finishedThisRun = true;
    this.largestTrial = larger(this.largestTrial ?? zero(), spend);
  }

  /** "12 calls (--max-calls 12), 3400 tokens, $0.0123": spent in all (earlier runs too), each limit beside it. */
  describe(): string {
    return spendText(
      {
        calls: this.before.calls + this.spent.calls,
        tokens: this.before.tokens + this.spent.tokens,
        costUsd: this.before.costUsd + this.spent.costUsd,
      },
      this.options.priced === true,
      this.limits,
    );
  }

  /** What earlier runs spent, in the same words ("7 calls, 2100 tokens, not priced"); null when nothing. */
  describeBefore(): string | null {
    const before = this.before;
    return before.calls === 0 ? null : spendText(before, this.options.priced === true);
  }

  /** What one more trial is projected to spend, before it is dealt. */
  private projectedTrial(): Spend {
    const known =
      this.largestTrial ??
      (this.largestCall
        ? { calls: 1, tokens: this.largestCall.tokens, costUsd: this.largestCall.costUsd }
        : (this.options.firstTrialFloor ?? { calls: 1, tokens: 0, costUsd: 0 }));
    return this.largestEstimate ? larger(known, this.largestEstimate) : known;
  }
}

/** The larger of two spends, field by field. */
function larger(a: Spend, b: Spend): Spend {
  return {
    calls: Math.max(a.calls, b.calls),
    tokens: Math.max(a.tokens, b.tokens),
    costUsd: Math.max(a.costUsd, b.costUsd),
  };
}

/** Calls, tokens and dollars ("not priced" without --prices), each limit beside what it bounds. */
function spendText(spend: Spend, priced: boolean, limits: BudgetLimits = {}): string {
  return [
    `${spend.calls} calls${limits.calls !== undefined ? ` (--max-calls ${limits.calls})` : ""}`,
    `${spend.tokens} tokens${limits.tokens !== undefined ? ` (--max-tokens-total ${limits.tokens})` : ""}`,
    `${priced ? usd(spend.costUsd) : "not priced"}${limits.costUsd !== undefined ? ` (--max-cost ${limits.costUsd})` : ""}`,
  ].join(", ");
}

/** Dollars to four decimals: the cost of a few calls is a fraction of a cent. */
export function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}
