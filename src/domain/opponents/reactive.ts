// PD-family strategies that react to the other player's moves. They read moves, not payoffs, so they
// behave the same under a payoff counterfactual. A null (the other player had no valid move) counts as
// not cooperating: the other side did not cooperate that round.

import { z } from "zod";
import { dilemmaActions, isDilemma, type OpponentStrategy } from "./strategy.js";

const noParams = z.object({}).strict();

export const titForTat: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "tit-for-tat",
  description: "Cooperates first, then copies the other player's previous move.",
  params: noParams,
  applies: isDilemma,
  move: (context, history) => {
    const { cooperate, defect } = dilemmaActions(context);
    const last = history.at(-1);
    return last === undefined || last.other === cooperate ? cooperate : defect;
  },
};

export const grimTrigger: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "grim-trigger",
  description: "Cooperates until the other player fails to cooperate once, then never cooperates again.",
  params: noParams,
  applies: isDilemma,
  move: (context, history) => {
    const { cooperate, defect } = dilemmaActions(context);
    return history.every((round) => round.other === cooperate) ? cooperate : defect;
  },
};

export const winStayLoseShift: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "win-stay-lose-shift",
  description:
    "Cooperates first; then cooperates exactly when both players made the same move last round (Pavlov: keep a move that was met with cooperation, switch after being met with defection).",
  params: noParams,
  applies: isDilemma,
  move: (context, history) => {
    const { cooperate, defect } = dilemmaActions(context);
    const last = history.at(-1);
    if (last === undefined) return cooperate;
    const cooperated = (move: string | null) => move === cooperate;
    return cooperated(last.own) === cooperated(last.other) ? cooperate : defect;
  },
};
