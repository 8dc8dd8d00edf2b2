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
  /** UTF-8 bytes of everything the request sends: system message, conversation and tool schemas, as JSON. */
  readonly promptBytes: number;
  /** The request offers tools: the provider adds its own tool-use instructions to the prompt. */
  readonly toolsOffered: boolean;
  /** `--max-tokens`: the longest reply the endpoint may give. */
  readonly maxCompletionTokens: number;
  readonly price: ModelPrice | null;
  /** Made through the provider's batch API, at its batch price. */
  readonly batch?: boolean;
}

/**
 * Tokens a provider adds to every request around what it is sent: role markers and separators of the
 * chat template and the priming of the reply (a few tokens a message; the request's JSON already holds
 * more bytes of structure per message than a template adds tokens).
 */
export const TEMPLATE_TOKENS_PER_CALL = 64;

/**
 * Tokens a provider adds to a request that offers tools: its own tool-use instructions, which it counts
 * as prompt tokens (Anthropic documents 159 to 530 of them, by model and tool choice).
 */
export const TOOL_USE_TOKENS_PER_CALL = 600;

const zero = (): Spend => ({ calls: 0, tokens: 0, costUsd: 0 });

/**
 * The budget of a player in a study, kept so that it is never passed: the limits count what the record
 * already holds for the player (earlier runs) plus this run's calls. Each endpoint call is reserved before
 * it is sent at the most it can cost (`callEstimate`), and only when that fits beside what is spent and
 * the reservations of the calls in flight; the reservation holds until the call ends. A trial is admitted only when one more trial fits beside what is spent and what the trials
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
  /** The prompt bytes of each call in flight, to compare with the prompt tokens its endpoint reports. */
  private readonly promptBytes = new Map<number, number>();
  /** The most prompt tokens an answered call of this run counted beyond its prompt's bytes. */
  private largestExcess = 0;
  /** The longest reply an answered call of this run gave (an endpoint may not honour --max-tokens). */
  private longestReply = 0;
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
    // A trial admitted later must be able to reserve a call like this one, or it would be left open.
    this.largestEstimate = this.largestEstimate ? larger(this.largestEstimate, spend) : spend;
    if (!this.fits(spend)) return null;
    const ticket = ++this.nextTicket;
    this.inFlight.set(ticket, spend);
    this.promptBytes.set(ticket, estimate.promptBytes);
    return ticket;
  }

  /**
   * A reserved call was answered with these counts: a prompt counted beyond its bytes raises the overhead
   * every later call is reserved with, and a reply longer than --max-tokens the reply reserved.
   */
  observe(ticket: number | null, promptTokens: number | null, completionTokens: number | null): void {
    const bytes = ticket === null ? undefined : this.promptBytes.get(ticket);
    if (bytes !== undefined && promptTokens !== null) {
      this.largestExcess = Math.max(this.largestExcess, promptTokens - bytes);
    }
    if (completionTokens !== null) this.longestReply = Math.max(this.longestReply, completionTokens);
  }

  /** A reserved call ended (answered, and charged, or failed). */
  endCall(ticket: number | null): void {
    if (ticket === null) return;
    this.inFlight.delete(ticket);
    this.promptBytes.delete(ticket);
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
   * The most one call can spend, as the budget counts it: its prompt's bytes as tokens, plus the tokens a
   * provider adds around them, plus the longest reply `--max-tokens` allows, at the seat's price.
   *
   * A token of a byte-level tokenizer (GPT's, Claude's, Llama 3's) or of one with byte fallback
   * (SentencePiece) stands for at least one byte of the text, so a prompt counts at most as many tokens as
   * it has bytes, whatever its language. What a provider adds (chat template, tool-use instructions) is
   * stated per call (`TEMPLATE_TOKENS_PER_CALL`, `TOOL_USE_TOKENS_PER_CALL`), and raised to the most an
   * answered call of this run counted beyond its bytes. The counts of earlier calls bound nothing tighter:
   * the next prompt's text may be denser than any seen (another framing's language, a reply quoted back).
   */
  callEstimate(estimate: CallEstimate): Spend {
    const stated = TEMPLATE_TOKENS_PER_CALL + (estimate.toolsOffered ? TOOL_USE_TOKENS_PER_CALL : 0);
    const prompt = estimate.promptBytes + Math.max(stated, this.largestExcess);
    const reply = Math.max(estimate.maxCompletionTokens, this.longestReply);
    const cost = estimate.price ? callCost(estimate.price, prompt, reply, estimate.batch === true) : 0;
    return { calls: 1, tokens: prompt + reply, costUsd: cost };
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
