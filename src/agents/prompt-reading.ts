import { readPayoffStatements } from "../domain/certify.js";
import { findLabelMentions, type LabelMap, tokenize } from "../domain/labels.js";

// How the reference agents read a prompt: the same reader certification uses, keyed by the surface
// labels themselves (the agents never learn canonical action ids), so a framing that certifies is a
// framing these agents can read.

/** Own payoff of every (own label, other label) profile as stated in the prompt. */
export type PayoffTable = ReadonlyMap<string, ReadonlyMap<string, number>>;

function selfMap(labels: readonly string[]): LabelMap {
  return Object.fromEntries(labels.map((label) => [label, label]));
}

/** The own-payoff table stated in the prompt; throws when the text does not state every profile. */
export function readOwnPayoffs(prompt: string, labels: readonly string[]): PayoffTable {
  const { statements, unreadable } = readPayoffStatements(prompt, selfMap(labels));
  if (unreadable !== null) throw new Error(`The prompt cannot be read: ${unreadable}.`);
  const table = new Map<string, Map<string, number>>(labels.map((label) => [label, new Map()]));
  for (const statement of statements) table.get(statement.own)?.set(statement.other, statement.ownPayoff);
  for (const own of labels) {
    for (const other of labels) {
      if (!table.get(own)?.has(other)) {
        throw new Error(`The prompt states no payoff for choosing "${own}" against "${other}".`);
      }
    }
  }
  return table;
}

export function ownPayoff(table: PayoffTable, own: string, other: string): number {
  return table.get(own)?.get(other) as number;
}

/** The first label with the highest expected payoff against an opponent choosing uniformly at random. */
export function bestResponseToUniform(table: PayoffTable, labels: readonly string[]): string {
  const expected = (own: string) => labels.reduce((sum, other) => sum + ownPayoff(table, own, other), 0);
  return labels.reduce((best, label) => (expected(label) > expected(best) ? label : best));
}

/**
 * The label both players do best to share: the highest payoff on the diagonal. In every social dilemma
 * of the catalog that is the cooperative action, whatever the framing calls it.
 */
export function mutualBestLabel(table: PayoffTable, labels: readonly string[]): string {
  return labels.reduce((best, label) =>
    ownPayoff(table, label, label) > ownPayoff(table, best, best) ? label : best,
  );
}

/** The other player's move in an outcome text that names one's own move first, then the other's. */
export function otherMoveIn(outcome: string, labels: readonly string[]): string | null {
  const mentions = findLabelMentions(tokenize(outcome), selfMap(labels));
  return mentions[1]?.action ?? null;
}
