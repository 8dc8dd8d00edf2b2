import { actionLabelled, type LabelMap, type Token, tokenize, wordsOf } from "./labels.js";
import type { ActionId } from "./types.js";
import { AMOUNT, amountValue } from "./writing-systems.js";

// The certification reader (SPEC §3): it attributes every amount in a rendered prompt to a party
// and an action profile by what the text says, not by where a template put it. It knows only the labels
// and the phrases the framing declares for the two parties ("you", "your firm" / "the other firm",
// "theirs"); it never sees the framing's templates, so a template that says "the other player is awarded
// {own_amount}" is read as giving the other player that amount, and a table whose headings are swapped is
// read by its headings.
//
// Table: the heading row says whose each column is; a data cell that is a label is an action, a cell with
// one number an amount. Bullet sentence `- ...`: each label and amount belongs to the party named last
// before it ("If your firm chooses X and the other firm chooses Y, your firm makes 2 and theirs makes 10").

export interface Parties {
  /** Phrases that name the agent: "you", "your firm". */
  readonly self: readonly string[];
  /** Phrases that name the other party: "the other firm", "theirs". */
  readonly other: readonly string[];
}

export type Party = "self" | "other";

/** One profile as the text states it: each party's action and amount. */
export interface ReadStatement {
  readonly source: "table" | "sentences";
  readonly own: ActionId;
  readonly other: ActionId;
  readonly ownPayoff: number;
  readonly otherPayoff: number;
}

const TABLE_SEPARATOR = /^\|[\s:|-]*$/;

interface Phrase {
  readonly words: readonly string[];
  readonly kind: "party" | "label";
  readonly value: string;
}

type Event =
  | { readonly at: number; readonly kind: "party"; readonly party: Party }
  | { readonly at: number; readonly kind: "label"; readonly action: ActionId }
  | { readonly at: number; readonly kind: "amount"; readonly amount: number };

function phrasesOf(labels: LabelMap, parties: Parties): Phrase[] {
  return [
    ...parties.self.map((text) => ({ words: wordsOf(text), kind: "party" as const, value: "self" })),
    ...parties.other.map((text) => ({ words: wordsOf(text), kind: "party" as const, value: "other" })),
    ...Object.entries(labels).map(([action, text]) => ({
      words: wordsOf(text),
      kind: "label" as const,
      value: action,
    })),
  ]
    .filter((phrase) => phrase.words.length > 0)
    .sort((a, b) => b.words.length - a.words.length);
}

/** Party, label and amount mentions of one piece of text in order; longest phrase wins at each word. */
function eventsOf(text: string, phrases: readonly Phrase[]): Event[] {
  const events: Event[] = [];
  const numbers = Array.from(text.matchAll(AMOUNT));
  const numberStarts = new Set<number>();
  for (const match of numbers) {
    events.push({ at: match.index, kind: "amount", amount: amountValue(match[0]) });
    for (let i = match.index; i < match.index + match[0].length; i++) numberStarts.add(i);
  }
  const tokens: Token[] = tokenize(text).filter((token) => !numberStarts.has(token.start));
  for (let i = 0; i < tokens.length; ) {
    const phrase = phrases.find((candidate) =>
      candidate.words.every((word, k) => tokens[i + k]?.word === word),
    );
    if (phrase === undefined) {
      i++;
      continue;
    }
    const at = (tokens[i] as Token).start;
    events.push(
      phrase.kind === "party"
        ? { at, kind: "party", party: phrase.value as Party }
        : { at, kind: "label", action: phrase.value },
    );
    i += phrase.words.length;
  }
  return events.sort((a, b) => a.at - b.at);
}

const PARTY_NAME: Record<Party, string> = { self: "the agent", other: "the other party" };

/** The profile one bullet sentence states, or why it cannot be read. */
function readSentence(sentence: string, phrases: readonly Phrase[]): ReadStatement | string {
  const actions: Partial<Record<Party, ActionId>> = {};
  const amounts: Partial<Record<Party, number>> = {};
  let current: Party | null = null;
  for (const event of eventsOf(sentence, phrases)) {
    if (event.kind === "party") {
      current = event.party;
      continue;
    }
    const what = event.kind === "label" ? "an action" : "an amount";
    if (current === null) return `payoff sentence "${sentence}" states ${what} before naming whose it is`;
    const slot = event.kind === "label" ? actions : amounts;
    if (slot[current] !== undefined) {
      return `payoff sentence "${sentence}" states ${what} twice for ${PARTY_NAME[current]}`;
    }
    slot[current] = event.kind === "label" ? (event.action as never) : (event.amount as never);
  }
  for (const party of ["self", "other"] as const) {
    if (actions[party] === undefined || amounts[party] === undefined) {
      return `payoff sentence "${sentence}" does not state both an action and an amount for ${PARTY_NAME[party]}`;
    }
  }
  return {
    source: "sentences",
    own: actions.self as ActionId,
    other: actions.other as ActionId,
    ownPayoff: amounts.self as number,
    otherPayoff: amounts.other as number,
  };
}

/** Whose column a table heading names, or why it names no single party. */
function headingParty(heading: string, phrases: readonly Phrase[]): { party: Party } | string {
  const named = new Set(
    eventsOf(heading, phrases).flatMap((event) => (event.kind === "party" ? [event.party] : [])),
  );
  if (named.size !== 1) {
    return `table heading "${heading.trim()}" names ${named.size === 0 ? "neither party" : "both parties"}`;
  }
  return { party: [...named][0] as Party };
}

interface Column {
  readonly party: Party;
  readonly kind: "action" | "amount";
}

function readTable(
  lines: readonly string[],
  labels: LabelMap,
  phrases: readonly Phrase[],
): ReadStatement[] | string {
  const cellsOf = (line: string) => line.split("|").slice(1, -1);
  const headings = cellsOf(lines[0] as string);
  const parties: Party[] = [];
  for (const heading of headings) {
    const party = headingParty(heading, phrases);
    if (typeof party === "string") return party;
    parties.push(party.party);
  }
  const rows = lines.slice(1).filter((line) => !TABLE_SEPARATOR.test(line));
  let columns: Column[] | null = null;
  const statements: ReadStatement[] = [];
  for (const row of rows) {
    const cells = cellsOf(row);
    if (cells.length !== headings.length)
      return `table row "${row}" has ${cells.length} cells under ${headings.length} headings`;
    const kinds = cells.map((cell) => {
      if (actionLabelled(cell, labels) !== undefined) return "action" as const;
      return Array.from(cell.matchAll(AMOUNT)).length === 1 ? ("amount" as const) : null;
    });
    if (kinds.includes(null))
      return `table row "${row}" has a cell that is neither an action label nor one amount`;
    const rowColumns = kinds.map((kind, i) => ({ party: parties[i] as Party, kind: kind as Column["kind"] }));
    columns ??= rowColumns;
    if (rowColumns.some((column, i) => column.kind !== columns?.[i]?.kind)) {
      return `table row "${row}" puts actions and amounts in other columns than the rows above`;
    }
    const value = (party: Party, kind: Column["kind"]) => {
      const at = rowColumns.flatMap((column, i) =>
        column.party === party && column.kind === kind ? [i] : [],
      );
      return at.length === 1 ? (cells[at[0] as number] as string) : undefined;
    };
    const own = value("self", "action");
    const other = value("other", "action");
    const ownAmount = value("self", "amount");
    const otherAmount = value("other", "amount");
    if (own === undefined || other === undefined || ownAmount === undefined || otherAmount === undefined) {
      return "the payoff table does not have exactly one action column and one amount column for each party";
    }
    statements.push({
      source: "table",
      own: actionLabelled(own, labels) as ActionId,
      other: actionLabelled(other, labels) as ActionId,
      ownPayoff: amountValue(Array.from(ownAmount.matchAll(AMOUNT))[0]?.[0] ?? "NaN"),
      otherPayoff: amountValue(Array.from(otherAmount.matchAll(AMOUNT))[0]?.[0] ?? "NaN"),
    });
  }
  return statements;
}

/** Every profile the prompt states, read by meaning, or the first payoff line that cannot be read. */
export function readPayoffsByMeaning(
  text: string,
  labels: LabelMap,
  parties: Parties,
): { statements: ReadStatement[]; unreadable: string | null } {
  const phrases = phrasesOf(labels, parties);
  const statements: ReadStatement[] = [];
  const lines = text.split("\n").map((line) => line.trim());
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("|")) {
      let end = i;
      while (end + 1 < lines.length && (lines[end + 1] as string).startsWith("|")) end++;
      const table = readTable(lines.slice(i, end + 1), labels, phrases);
      if (typeof table === "string") return { statements, unreadable: table };
      statements.push(...table);
      i = end;
    } else if (line.startsWith("- ")) {
      const statement = readSentence(line.slice(2), phrases);
      if (typeof statement === "string") return { statements, unreadable: statement };
      statements.push(statement);
    }
  }
  return { statements, unreadable: null };
}
