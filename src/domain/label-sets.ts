import type { LabelMap } from "./labels.js";
import type { ActionId } from "./types.js";

// The words an action is shown with are a design factor of their own, crossed with the story:
//   - story-true: the framing's own words for the actions in its world ("Hold the price", "Undercut");
//   - familiar:   the textbook names, one per canonical action id ("Cooperate", "Defect");
//   - neutral:    letters that mean nothing (J, F, K, ...).
// A framing file states its story-true labels; the other two sets are derived, so every story can be shown
// with every set and a study can tell whether the story or the words moved the agent.

export const LABEL_CHOICES = ["story-true", "familiar", "neutral"] as const;
export type LabelChoice = (typeof LABEL_CHOICES)[number];

/** Letters without a meaning or an order: not A/B/C (ranks), not C/D (cooperate/defect), not I, X, Y. */
export const NEUTRAL_TOKENS = ["J", "F", "K", "Q", "W", "Z"] as const;

/** How a presentation (story × label set) is named in designs and in the record: `business+familiar`. */
const SEPARATOR = "+";

export function presentationId(framingId: string, labels: LabelChoice): string {
  return labels === "story-true" ? framingId : `${framingId}${SEPARATOR}${labels}`;
}

/** The framing file and label set a presentation id names; a plain framing id is its story-true presentation. */
export function splitPresentationId(id: string): { framing: string; labels: LabelChoice | null } {
  const at = id.indexOf(SEPARATOR);
  if (at < 0) return { framing: id, labels: "story-true" };
  const labels = id.slice(at + 1);
  return {
    framing: id.slice(0, at),
    labels: (LABEL_CHOICES as readonly string[]).includes(labels) ? (labels as LabelChoice) : null,
  };
}

/** The textbook name of each action: its id in title case ("stag-hare" → "Stag hare"). */
export function familiarLabels(actions: readonly ActionId[]): LabelMap {
  return Object.fromEntries(
    actions.map((action) => {
      const words = action.replace(/-/g, " ");
      return [action, words.charAt(0).toUpperCase() + words.slice(1)];
    }),
  );
}

/** One neutral letter per action, in catalog order; games have at most six actions. */
export function neutralLabels(actions: readonly ActionId[]): LabelMap {
  if (actions.length > NEUTRAL_TOKENS.length) {
    throw new Error(`Neutral labels cover at most ${NEUTRAL_TOKENS.length} actions, got ${actions.length}.`);
  }
  return Object.fromEntries(actions.map((action, i) => [action, NEUTRAL_TOKENS[i] as string]));
}
