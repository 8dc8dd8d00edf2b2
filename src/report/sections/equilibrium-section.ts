import { formatNumber } from "../format-numbers.js";
import { html, type SafeHtml } from "../html.js";
import type { EquilibriumCell } from "../report-data.js";
import { playerName } from "./provenance-section.js";

/** "cooperate 0.35, defect 0.65": each action stays on one line with its share; the list may wrap. */
function strategy(d: Record<string, number>): string {
  return Object.entries(d)
    .map(([action, p]) => `${action}\u00a0${formatNumber(p, 2)}`)
    .join(", ");
}

/** Each cell's choices beside the nearest Nash equilibrium; template persistence for payoff counterfactuals. */
export function equilibriumSection(
  cells: readonly EquilibriumCell[],
  imported: ReadonlyMap<string, string>,
): SafeHtml {
  if (cells.length === 0) {
    return html`<section id="equilibrium"><h2>Equilibrium comparison</h2><p class="no-data">No one-shot cells to compare with the games' equilibria.</p></section>`;
  }
  const rows = cells.map(
    (c) =>
      html`<tr><td>${playerName(c.player, imported)}</td><td>${c.game}</td><td>${c.variant}</td><td>${c.framing}</td><td class="num">${c.n}</td><td class="wrap">${strategy(c.distribution)}</td><td class="wrap">${strategy(c.equilibrium_strategy)}</td><td class="num">${formatNumber(c.total_variation)}</td><td class="num">${formatNumber(c.exploitability)}</td><td>${c.template_persistence === null ? "—" : c.template_persistence ? "yes" : "no"}</td></tr>`,
  );
  return html`<section id="equilibrium"><h2>Equilibrium comparison</h2><table>
<thead><tr><th>Player</th><th>Game</th><th>Variant</th><th>Framing</th><th class="num">n</th><th>Choices π̂</th><th>Nearest equilibrium</th><th class="num">Total variation</th><th class="num">Exploitability</th><th>Template persistence</th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="note">Total variation: ½ Σ |π̂ − σ*| to the nearest Nash equilibrium strategy σ* of the row player (0 = plays the equilibrium). Exploitability: what a best-responding opponent gains over its equilibrium payoff, as a share of the game's payoff range. Template persistence (payoff and joint counterfactuals only): the choices sit nearer the base game's equilibria than the played game's — the agent answered the familiar game, not this one.</p></section>`;
}
