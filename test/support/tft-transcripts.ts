// Imported repeated prisoner's dilemma matches (16 rounds) against tit-for-tat, with payoffs a reader can
// add up by hand. Stage payoffs (C,C) 4 (C,D) 1 (D,C) 6 (D,D) 2; tit-for-tat opens with C, then copies.
//   cooperator: all C → 16·4 = 64; C×15 then D → 15·4 + 6 = 66; D then C×15 → 6 + 1 + 14·4 = 63.
//     mean 193/3 = 64.33; cooperation (1 + 15/16 + 15/16)/3 = 46/48.
//   defector: all D → 6 + 15·2 = 36 (twice); C then D×15 → 4 + 6 + 14·2 = 38. mean 110/3 = 36.67;
//     cooperation 1/48.

export const C = "cooperate";
export const D = "defect";

const STAGE: Record<string, Record<string, number>> = {
  cooperate: { cooperate: 4, defect: 1 },
  defect: { cooperate: 6, defect: 2 },
};

/** Sixteen rounds of one move. */
export const all = (move: string): string[] => Array.from({ length: 16 }, () => move);

/** One line of a matches JSONL import: our moves round by round, tit-for-tat's and the payoffs follow. */
export function tftTranscript(player: string, ours: readonly string[], opponent = "tft"): string {
  const rounds = ours.map((move, r) => {
    const theirs = r === 0 ? C : (ours[r - 1] as string);
    return {
      move,
      opponent_move: theirs,
      payoff: STAGE[move]?.[theirs],
      opponent_payoff: STAGE[theirs]?.[move],
    };
  });
  return JSON.stringify({
    player,
    game: "repeated-pd",
    variant: "base",
    framing: "their-prompt",
    opponent,
    rounds,
  });
}

/** Each player's three matches of the header: the cooperator's, then the defector's. */
export const TFT_MATCHES = {
  cooperator: [all(C), [...all(C).slice(1), D], [D, ...all(C).slice(1)]],
  defector: [all(D), all(D), [C, ...all(D).slice(1)]],
} as const;

/** The six matches of both players as import lines, against the opponent labelled `opponent`. */
export function cooperatorAndDefector(opponent = "tft"): string[] {
  return (["cooperator", "defector"] as const).flatMap((player) =>
    TFT_MATCHES[player].map((moves) => tftTranscript(player, moves, opponent)),
  );
}
