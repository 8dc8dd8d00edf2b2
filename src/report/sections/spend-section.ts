import type { SpendSummary } from "../../queries/spend-query.js";
import { spendUsd } from "../../queries/spend-query.js";
import type { SpendCellRow } from "../../store/store.js";
import { html, isolated, type SafeHtml } from "../html.js";
import { playerName } from "./provenance-section.js";

/** The player, or the second seat (`--opponent-model`) whose calls count with the player's trials. */
function seatName(row: SpendCellRow, imported: ReadonlyMap<string, string>): SafeHtml {
  return row.second_seat === null
    ? playerName(row.player, imported)
    : html`${isolated(row.second_seat)} <span class="muted">(second seat of ${playerName(row.player, imported)}'s trials)</span>`;
}

/**
 * What the runner's model calls cost per (player, game, framing) cell and in all: calls the endpoint
 * answered (of them, by batch), replies reused from the cache, tokens in and out, dollars at the run's
 * --prices table. Shown only when the record has runner calls.
 */
export function spendSection(spend: SpendSummary, imported: ReadonlyMap<string, string>): SafeHtml {
  const row = (cells: SafeHtml | string, r: SpendSummary["total"]) =>
    html`${cells}<td class="num">${r.calls}</td><td class="num">${r.batched}</td><td class="num">${r.cached}</td><td class="num">${r.prompt_tokens}</td><td class="num">${r.completion_tokens}</td><td class="num">${spendUsd(r.cost_usd)}</td>`;
  const rows = spend.cells.map(
    (c) =>
      html`<tr>${row(html`<td>${seatName(c, imported)}</td><td>${c.game}</td><td>${c.framing}</td>`, c)}</tr>`,
  );
  const partlyPriced = spend.total.priced > 0 && spend.total.priced < spend.total.calls + spend.total.cached;
  return html`<section id="spend"><h2>Spend per cell</h2><table class="wide">
<thead><tr><th>Player</th><th>Game</th><th>Framing</th><th class="num">Calls</th><th class="num">By batch</th><th class="num">Cached</th><th class="num">Tokens in</th><th class="num">Tokens out</th><th class="num">Cost</th></tr></thead>
<tbody>${rows}<tr class="total">${row(html`<td colspan="3">Total</td>`, spend.total)}</tr></tbody></table>
<p class="note">Calls: requests the endpoint answered for <code>same-game run</code>, directly or in a provider batch (<code>--batch</code>, priced at the batch price); cached: replies reused from the response cache, which cost nothing and are not calls. A second model's seat (<code>--opponent-model</code>) counts in its partner trial's cell, on a row naming it. Tokens are those of the calls. Cost at the run's <code>--prices</code> table${partlyPriced ? "; some calls were made without one, so the cost counts only the priced ones" : ""} (— without one).</p></section>`;
}
