import { byText } from "../../domain/text-order.js";
import { formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { EquilibriumCell } from "../report-data.js";
import { playerName } from "./provenance-section.js";
import { groupedRowHeaders } from "./row-groups.js";

/** The actions of a cell, in the order its shares are written (the distribution's, the game's order). */
function actionsOf(c: EquilibriumCell): string[] {
  return [...new Set([...Object.keys(c.distribution), ...Object.keys(c.equilibrium_strategy)])];
}

/** "0.35 / 0.65": the shares of `actions` in order, which the game's row header names once. */
function shares(d: Record<string, number>, actions: readonly string[]): string {
  return actions.map((a) => formatNumber(d[a] ?? 0, 2)).join(" / ");
}

/**
 * Each cell's choices beside the nearest Nash equilibrium; template persistence for payoff counterfactuals.
 * One row per cell, the player, game (with its actions, in the order the shares are given) and variant
 * written once over their rows.
 */
export function equilibriumSection(
  cells: readonly EquilibriumCell[],
  imported: ReadonlyMap<string, string>,
): SafeHtml {
  if (cells.length === 0) {
    return html`<section id="equilibrium"><h2>Equilibrium comparison</h2><p class="no-data">No one-shot cells to compare with the games' equilibria.</p></section>`;
  }
  const sorted = [...cells].sort(
    (a, b) =>
      byText(a.player, b.player) ||
      byText(a.game, b.game) ||
      byText(a.variant, b.variant) ||
      byText(a.framing, b.framing),
  );
  const headers = groupedRowHeaders(
    sorted,
    [(c) => c.player, (c) => c.game, (c) => c.variant],
    (c, column) =>
      column === 0
        ? playerName(c.player, imported)
        : column === 1
          ? html`${c.game} <span class="actions">(${actionsOf(c).join(" / ")})</span>`
          : c.variant,
  );
  const rows = sorted.map(
    (c, r) =>
      html`<tr>${headers[r] as SafeHtml}<th>${c.framing}</th><td>${c.n}</td><td>${shares(c.distribution, actionsOf(c))}</td><td>${shares(c.equilibrium_strategy, actionsOf(c))}</td><td>${formatNumber(c.total_variation)}</td><td>${formatNumber(c.exploitability)}</td><td>${c.template_persistence === null ? "—" : c.template_persistence ? "yes" : "no"}</td></tr>`,
  );
  return html`<section id="equilibrium"><h2>Equilibrium comparison</h2><table class="grouped wide">
<thead><tr><th>Player</th><th>Game (actions)</th><th>Variant</th><th>Framing</th><th class="num">n</th><th class="num">Choices π̂</th><th class="num">Nearest equilibrium</th><th class="num">Total variation</th><th class="num">Exploitability</th><th class="num">Template persistence</th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="note">Choices π̂ and the nearest equilibrium are shares of the game's actions, in the order named beside the game. Total variation: ½ Σ |π̂ − σ*| to the nearest Nash equilibrium strategy σ* of the row player (0 = plays the equilibrium). Exploitability: what a best-responding opponent gains over its equilibrium payoff, as a share of the range of the opponent's payoffs. Template persistence (payoff and joint counterfactuals only): the choices sit nearer the base game's equilibria than the played game's — the agent answered the familiar game, not this one.</p></section>`;
}
