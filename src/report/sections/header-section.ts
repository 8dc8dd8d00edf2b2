import { html, isolated, isolatedList, type SafeHtml } from "../html.js";
import type { ReportHeader, VerificationCheck } from "../report-data.js";
import { failedCount } from "./checks-section.js";

function metaList(header: ReportHeader): SafeHtml {
  const study = header.study
    ? html`<dt>Study</dt><dd>${isolated(header.study.name)} <span class="muted">(id ${header.study.id}, design hash <code>${header.study.design_hash}</code>)</span></dd>`
    : html`<dt>Study</dt><dd>none: all recorded play</dd>`;
  const players = header.players.length === 0 ? "none" : isolatedList(header.players);
  return html`<dl class="meta"><dt>Generated</dt><dd>${header.generated_at}</dd><dt>Database</dt><dd><code>${header.database ?? "not recorded"}</code></dd>${study}<dt>Players</dt><dd>${players}</dd></dl>`;
}

function checksBanner(checks: readonly VerificationCheck[]): SafeHtml {
  const failed = failedCount(checks);
  if (failed === 0) return html``;
  return html`<p class="banner"><a href="#checks">${failed} verification check${failed === 1 ? "" : "s"} FAILED</a>: see the Verification section.</p>`;
}

// The intro explains the two statistics once, so the captions under the charts can stay short.
const INTRO = html`<section id="intro"><h2>What this report measures</h2>
<p>same-game asks whether an agent <strong>plays the game or the story</strong>. The same strategic game (same actions, same payoffs) is presented under different framings — a business negotiation, friends sharing, and so on. An agent that reasons about the game should choose the same way whatever the story; an agent swayed by the words will not.</p>
<ul>
<li><strong>Robustness R</strong> = 1 − max JSD / ln 2, where max JSD is the largest Jensen–Shannon divergence between the agent's choice distributions under any two framings of a game. R = 1: identical behaviour under every story; R = 0: completely different behaviour.</li>
<li><strong>Shift</strong> = the cooperation rate under the second framing minus the rate under the first. Positive: the second story made the agent cooperate more.</li>
<li><strong>Payoff sensitivity λ</strong>: how sharply choices follow the payoff difference (logit response); λ ≈ 0 means the payoffs are ignored.</li>
<li><strong>Opponent comprehension</strong>: in repeated play, the round from which the agent keeps doing at least as well as simply matching its opponent.</li>
</ul>
<p>All intervals are 95%. R's is a test-inversion interval: every value of R the agent's counts do not argue against, which accounts for how far a maximum over pairs of framings falls below the truth when several framings share an extreme. Shifts, cooperation rates and λ have percentile bootstrap intervals.</p></section>`;

export function headerSection(header: ReportHeader, checks: readonly VerificationCheck[]): SafeHtml {
  return html`<header><h1>${header.title}</h1>${metaList(header)}${checksBanner(checks)}</header>${INTRO}`;
}
