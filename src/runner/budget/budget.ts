import { setTimeout as sleep } from "node:timers/promises";

/** What a run may spend: endpoint calls, tokens (prompt + completion), dollars. Unset: unlimited. */
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

const zero = (): Spend => ({ calls: 0, tokens: 0, costUsd: 0 });

/**
 * The run's budget, kept so that no trial starts unless it can finish within it: a trial is admitted only
 * when what is spent, plus what the trials in play may still spend, plus one more trial, stays within
 * every limit — a trial's spend projected as the largest a finished trial of this run has cost. Until
 * one has finished the cost of a trial is unknown, so trials are then admitted one at a time. Each call
 * is checked too (one more call, of the largest call's tokens so far), so a trial dearer than any before
 * it stops before the budget is passed; it is then left open, and resumed by the next run.
 * Replies from the response cache cost nothing and are not endpoint calls.
 */
export class Budget {
  readonly spent: Spend = zero();
  private readonly inPlay = new Map<string, Spend>();
  private largestTrial: Spend | null = null;
  private largestCallTokens = 0;
  private largestCallCost = 0;

  constructor(readonly limits: BudgetLimits) {}

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
      const answer = this.admitNow(trial);
      if (answer !== "wait") return answer === "admitted";
      if (stopped()) return false;
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
    if (this.largestTrial === null && this.inPlay.size > 0) return "wait";
    const projected = this.largestTrial ?? zero();
    const inPlay = [...this.inPlay.values()];
    // A trial in play may still spend up to the projection, beyond what it has spent already.
    const committed = (field: keyof Spend) =>
      this.spent[field] + inPlay.reduce((sum, s) => sum + Math.max(0, projected[field] - s[field]), 0);
    const fits = (field: keyof Spend, limit: number | undefined) =>
      limit === undefined ||
      committed(field) + Math.max(projected[field], field === "calls" ? 1 : 0) <= limit;
    if (!fits("calls", this.limits.calls) || !fits("tokens", this.limits.tokens)) return "full";
    if (!fits("costUsd", this.limits.costUsd)) return "full";
    this.inPlay.set(trial, zero());
    return "admitted";
  }

  /** Whether one more endpoint call fits: a call, of the largest call's tokens and cost so far. */
  allowsCall(): boolean {
    const { calls, tokens, costUsd } = this.limits;
    if (calls !== undefined && this.spent.calls + 1 > calls) return false;
    if (tokens !== undefined && this.spent.tokens + this.largestCallTokens > tokens) return false;
    return costUsd === undefined || this.spent.costUsd + this.largestCallCost <= costUsd;
  }

  /** An endpoint call of a trial answered: its tokens and cost. */
  charge(trial: string, tokens: number, costUsd: number): void {
    for (const spend of [this.spent, this.inPlay.get(trial)]) {
      if (!spend) continue;
      spend.calls++;
      spend.tokens += tokens;
      spend.costUsd += costUsd;
    }
    this.largestCallTokens = Math.max(this.largestCallTokens, tokens);
    this.largestCallCost = Math.max(this.largestCallCost, costUsd);
  }

  /** A trial left play; a finished one's spend enters the projection. */
  release(trial: string, finished: boolean): void {
    const spend = this.inPlay.get(trial);
    this.inPlay.delete(trial);
    if (!finished || !spend) return;
    const largest = this.largestTrial ?? zero();
    this.largestTrial = {
      calls: Math.max(largest.calls, spend.calls),
      tokens: Math.max(largest.tokens, spend.tokens),
      costUsd: Math.max(largest.costUsd, spend.costUsd),
    };
  }

  /** "12 calls (--max-calls 12), 3400 tokens, $0.0123": what was spent, each limit beside what it bounds. */
  describe(): string {
    const parts = [
      `${this.spent.calls} calls${this.limits.calls !== undefined ? ` (--max-calls ${this.limits.calls})` : ""}`,
      `${this.spent.tokens} tokens${this.limits.tokens !== undefined ? ` (--max-tokens-total ${this.limits.tokens})` : ""}`,
      `${usd(this.spent.costUsd)}${this.limits.costUsd !== undefined ? ` (--max-cost ${this.limits.costUsd})` : ""}`,
    ];
    return parts.join(", ");
  }
}

/** Dollars to four decimals: the cost of a few calls is a fraction of a cent. */
export function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}
