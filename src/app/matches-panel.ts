import type { App } from "@modelcontextprotocol/ext-apps";
import { el } from "./dom.js";

interface MatchLine {
  match_id: string;
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  status: string;
  rounds_played: number;
  started_at: string;
}

interface TranscriptRound {
  round: number;
  status: string;
  your_choice: string | null;
  opponent_choice: string | null;
  your_points: number;
  opponent_points: number;
}

function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? []).map((c) => c.text ?? "").join(" ");
}

/** Matches listed per call, list_matches' own default page; "Show more" asks for the next. */
const PAGE = 50;

type Page = { matches: MatchLine[]; total: number } | { failure: string };

/**
 * Bumped on every cell click and every transcript opened: hosts may answer calls in any order, so only the
 * answer to the latest click is drawn, never a slower answer to an earlier one over it.
 */
let listing = 0;
let opening = 0;

/** One page of the cell's matches, newest first, or why there is none. */
async function listPage(app: App, args: Record<string, unknown>, offset: number): Promise<Page> {
  let result: Awaited<ReturnType<App["callServerTool"]>>;
  try {
    result = await app.callServerTool({
      name: "list_matches",
      arguments: { ...args, limit: PAGE, offset },
    });
  } catch (error) {
    // The host refused the call (a user declining an app's tool call) or lost the server.
    return { failure: `The host did not run list_matches: ${messageOf(error)}` };
  }
  if (result.isError) return { failure: textOf(result) || "list_matches failed." };
  const page = result.structuredContent as { matches?: MatchLine[]; total?: number } | undefined;
  const matches = page?.matches ?? [];
  return { matches, total: page?.total ?? offset + matches.length };
}

/**
 * Lists the matches of a clicked cell through list_matches, a page at a time, saying how many of the
 * cell's matches it shows; a click on one opens its transcript.
 */
export async function matchesPanel(
  app: App,
  panel: HTMLElement,
  args: Record<string, unknown>,
  setStatus: (text: string, error?: boolean) => void,
): Promise<void> {
  const opponent = typeof args.opponent === "string" ? ` vs ${args.opponent}` : "";
  const title = `${[args.player, args.game, args.framing].filter(Boolean).join(" · ")}${opponent}`;
  const request = ++listing;
  const latest = () => request === listing;
  panel.replaceChildren(el("h2", {}, `Matches: ${title}`), el("p", { class: "muted" }, "Loading…"));
  const first = await listPage(app, args, 0);
  if (!latest()) return;
  if ("failure" in first) return failed(panel, title, first.failure, setStatus);
  if (first.total === 0) {
    panel.replaceChildren(
      el("h2", {}, `Matches: ${title}`),
      el(
        "p",
        { class: "no-data" },
        "No match of this cell to list: imported counts have no transcripts, and over HTTP with a token only the matches started with that token are listed.",
      ),
    );
    return;
  }
  const transcript = el("div", { "data-transcript": "" });
  const list = el("ul", { class: "matches", "data-list": "matches" });
  const count = el("p", { class: "muted", "data-count": "" });
  const more = el("button", { type: "button", "data-more": "" });
  let shown = 0;
  const add = (page: { matches: MatchLine[]; total: number }) => {
    list.append(...page.matches.map((m) => matchItem(app, m, transcript, setStatus)));
    shown += page.matches.length;
    count.textContent =
      shown < page.total
        ? `${shown} of ${page.total} matches, newest first.`
        : `${page.total} match(es), newest first.`;
    more.textContent = `Show ${Math.min(PAGE, page.total - shown)} more`;
    // A page that came back empty (matches gone since) ends the list rather than asking forever.
    more.hidden = shown >= page.total || page.matches.length === 0;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    const next = await listPage(app, args, shown);
    more.disabled = false;
    // Another cell was opened meanwhile: this list is no longer on screen.
    if (!latest()) return;
    if ("failure" in next) return setStatus(next.failure, true);
    add(next);
  });
  add(first);
  panel.replaceChildren(el("h2", {}, `Matches: ${title}`), count, list, more, transcript);
  panel.scrollIntoView?.({ block: "nearest" });
}

/** One match of the list: its whole id (ids of one import differ only at their end), opening its transcript. */
function matchItem(
  app: App,
  m: MatchLine,
  transcript: HTMLElement,
  setStatus: (text: string, error?: boolean) => void,
): HTMLElement {
  const open = el("button", { type: "button", class: "link", "data-match": m.match_id }, m.match_id);
  open.addEventListener("click", () => void showTranscript(app, m, transcript, setStatus));
  return el(
    "li",
    {},
    open,
    // The record's times are UTC: said so, or a reader in New York or Kolkata takes them for local time.
    ` ${m.framing} vs ${m.opponent} · ${m.status}, ${m.rounds_played} round(s) · ${m.started_at.slice(0, 16).replace("T", " ")} UTC`,
  );
}

/** Says in the panel, where "Loading…" stood, and in the status line why the cell's matches are not listed. */
function failed(
  panel: HTMLElement,
  title: string,
  why: string,
  setStatus: (text: string, error?: boolean) => void,
): void {
  setStatus(why, true);
  panel.replaceChildren(
    el("h2", {}, `Matches: ${title}`),
    el("p", { class: "status error", "data-failure": "" }, `Cannot list these matches. ${why}`),
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The transcript through get_match; where the host lacks that tool, the match resource instead. */
async function showTranscript(
  app: App,
  match: MatchLine,
  target: HTMLElement,
  setStatus: (text: string, error?: boolean) => void,
): Promise<void> {
  let rounds: TranscriptRound[] | null = null;
  const request = ++opening;
  const latest = () => request === opening;
  const result = await app
    .callServerTool({ name: "get_match", arguments: { match_id: match.match_id } })
    .catch(() => null);
  if (!latest()) return;
  if (result && !result.isError) {
    rounds = (result.structuredContent as { rounds: TranscriptRound[] }).rounds;
  } else {
    try {
      const read = await app.readServerResource({ uri: `same-game://matches/${match.match_id}` });
      if (!latest()) return;
      const first = read.contents[0];
      const record = JSON.parse(first && "text" in first ? first.text : "{}") as {
        rounds?: {
          round: number;
          status: string;
          action: string | null;
          opponent_action: string | null;
          payoff: number;
          opponent_payoff: number;
        }[];
      };
      rounds = (record.rounds ?? []).map((r) => ({
        round: r.round,
        status: r.status,
        your_choice: r.action,
        opponent_choice: r.opponent_action,
        your_points: r.payoff,
        opponent_points: r.opponent_payoff,
      }));
    } catch (error) {
      if (!latest()) return;
      return setStatus(`Cannot open match ${match.match_id}: ${String(error)}`, true);
    }
  }
  const head = el(
    "tr",
    {},
    ...["Round", "Status", "Choice", "Opponent", "Points", "Opponent points"].map((h) => el("th", {}, h)),
  );
  const rows = rounds.map((r) =>
    el(
      "tr",
      {},
      el("td", { class: "num" }, String(r.round)),
      el("td", {}, r.status),
      el("td", {}, r.your_choice ?? "(void)"),
      el("td", {}, r.opponent_choice ?? "—"),
      el("td", { class: "num" }, String(r.your_points)),
      el("td", { class: "num" }, String(r.opponent_points)),
    ),
  );
  target.replaceChildren(
    el("h3", {}, `Transcript ${match.match_id}: ${match.game} (${match.variant}), ${match.framing}`),
    el(
      "div",
      { class: "table-scroll" },
      el("table", { "data-table": "transcript" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
  );
}
