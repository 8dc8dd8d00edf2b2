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

/** Lists the matches of a clicked cell through list_matches; a click on one opens its transcript. */
export async function matchesPanel(
  app: App,
  panel: HTMLElement,
  args: Record<string, unknown>,
  setStatus: (text: string, error?: boolean) => void,
): Promise<void> {
  const title = [args.player, args.game, args.framing].filter(Boolean).join(" · ");
  panel.replaceChildren(el("h2", {}, `Matches: ${title}`), el("p", { class: "muted" }, "Loading…"));
  let result: Awaited<ReturnType<App["callServerTool"]>>;
  try {
    result = await app.callServerTool({ name: "list_matches", arguments: args });
  } catch (error) {
    // The host refused the call (a user declining an app's tool call) or lost the server.
    return failed(panel, title, `The host did not run list_matches: ${messageOf(error)}`, setStatus);
  }
  if (result.isError) return failed(panel, title, textOf(result) || "list_matches failed.", setStatus);
  const lines = ((result.structuredContent as { matches?: MatchLine[] } | undefined)?.matches ??
    []) as MatchLine[];
  const transcript = el("div", { "data-transcript": "" });
  const items = lines.map((m) => {
    const open = el(
      "button",
      { type: "button", class: "link", "data-match": m.match_id },
      m.match_id.slice(0, 12),
    );
    open.addEventListener("click", () => void showTranscript(app, m, transcript, setStatus));
    return el(
      "li",
      {},
      open,
      ` ${m.framing} vs ${m.opponent} · ${m.status}, ${m.rounds_played} round(s) · ${m.started_at.slice(0, 16).replace("T", " ")}`,
    );
  });
  panel.replaceChildren(
    el("h2", {}, `Matches: ${title}`),
    lines.length === 0
      ? el(
          "p",
          { class: "no-data" },
          "No matches of this client in this cell (imported counts have no transcripts).",
        )
      : el("ul", { class: "matches", "data-list": "matches" }, ...items),
    transcript,
  );
  panel.scrollIntoView?.({ block: "nearest" });
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
  const result = await app
    .callServerTool({ name: "get_match", arguments: { match_id: match.match_id } })
    .catch(() => null);
  if (result && !result.isError) {
    rounds = (result.structuredContent as { rounds: TranscriptRound[] }).rounds;
  } else {
    try {
      const read = await app.readServerResource({ uri: `same-game://matches/${match.match_id}` });
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
    el(
      "h3",
      {},
      `Transcript ${match.match_id.slice(0, 12)}: ${match.game} (${match.variant}), ${match.framing}`,
    ),
    el(
      "div",
      { class: "table-scroll" },
      el("table", { "data-table": "transcript" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
  );
}
