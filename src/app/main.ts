import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from "@modelcontextprotocol/ext-apps";
import { type ClickedDatum, drawChart, type Theme } from "./chart-view.js";
import { type DashboardData, dashboardData, namesIn } from "./dashboard-data.js";
import { DASHBOARD_CSS } from "./dashboard-style.js";
import { ASKED, el, multiSelectOf, selectOf } from "./dom.js";
import { askedBy, type Filters, framingTwice, toolArguments, UNTOUCHED } from "./filters.js";
import { leaderboardSection } from "./leaderboard-panel.js";
import { matchesPanel } from "./matches-panel.js";
import { pairsSection } from "./pairs-panel.js";
import {
  checksSection,
  cooperationSection,
  type PendingChart,
  repeatedSection,
  robustnessSection,
  sensitivitySection,
} from "./sections.js";

// The dashboard view: it receives the result of robustness, report, repeated_metrics or compare from the host,
// draws it with the HTML report's chart specs, and re-runs the tool through the host when a filter changes.

interface State {
  data: DashboardData | null;
  /** The arguments the tool was first called with; filters are applied on top of them. */
  args: Record<string, unknown>;
  /** The arguments of the result on screen. */
  shownArgs: Record<string, unknown>;
  filters: Filters;
  names: {
    players: Set<string>;
    games: Set<string>;
    /** Framings with one-shot decisions, and those of repeated play (repeated_metrics' filter). */
    framings: Set<string>;
    repeatedFramings: Set<string>;
  };
  theme: Theme;
  width: number;
  /** Bumped on every render so a slow chart of an older render never lands in a newer page. */
  generation: number;
  /**
   * Bumped on every filter change: only the answer to the latest re-run is drawn, so a slow answer to an
   * older choice never lands over a newer one (hosts may answer calls in any order).
   */
  request: number;
  /** Cancels the re-run in flight, which a newer filter change makes useless. */
  running: AbortController | null;
}

const state: State = {
  data: null,
  args: {},
  shownArgs: {},
  filters: { ...UNTOUCHED },
  names: { players: new Set(), games: new Set(), framings: new Set(), repeatedFramings: new Set() },
  theme: "light",
  width: window.innerWidth,
  generation: 0,
  request: 0,
  running: null,
};

const app = new App({ name: "same-game dashboard", version: "1.0.0" }, {}, { autoResize: true });

document.head.append(el("style", {}, DASHBOARD_CSS));
const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
const header = el(
  "header",
  {},
  el("h1", {}, "same-game"),
  el("p", { class: "muted", "data-source": "" }, "Waiting for a result…"),
);
const form = el("form", { class: "filters", "data-filters": "" });
const main = el("main", {});
const matches = el("section", { "data-section": "matches" });
document.body.append(header, form, status, main, matches);

function setStatus(text: string, error = false): void {
  status.textContent = text;
  status.className = error ? "status error" : "status";
}

function remember(data: DashboardData): void {
  const names = namesIn(data);
  for (const p of names.players) state.names.players.add(p);
  for (const g of names.games) state.names.games.add(g);
  for (const f of names.framings) state.names.framings.add(f);
  for (const f of names.repeatedFramings) state.names.repeatedFramings.add(f);
}

function renderFilters(): void {
  const { filters, names } = state;
  if (!state.data) return;
  // A filter the analyst has not touched shows what the model asked for.
  const asked = askedBy(state.data.source, state.args);
  const sorted = (s: Set<string>) => [...s].sort();
  const field = (label: string, control: HTMLElement) => el("label", {}, label, control);
  const study = el("input", {
    name: "study",
    "data-filter": "study",
    placeholder: "all studies",
    value: filters.study ?? asked.study,
  });
  // A comparison by style, client or model chooses one of its groups where the others choose a player.
  const board = state.data?.leaderboard;
  const byGroup = state.data?.source === "compare" && board && board.by !== "player";
  const groups = byGroup ? [...new Set(board.rows.map((r) => r.group))].sort() : [];
  form.replaceChildren(
    byGroup
      ? field(capitalised(board.by), selectOf("group", `all ${board.by}s`, groups, filters.group))
      : field(
          "Player",
          selectOf("player", "all players", sorted(names.players), filters.player, asked.players),
        ),
    field("Game", selectOf("game", "all games", sorted(names.games), filters.game, asked.games)),
    field("Study", study),
    // repeated_metrics takes any framings to keep; the others a pair, offered from the framings with
    // one-shot decisions (a framing of repeated play only has nothing to compare and is refused).
    ...(state.data.source === "repeated_metrics"
      ? [
          field(
            "Framings (none chosen: all)",
            multiSelectOf("framings", sorted(names.repeatedFramings), filters.framings, asked.framings),
          ),
        ]
      : [
          field(
            "Baseline framing",
            selectOf("baseline", "default", [...names.framings], filters.baseline, asked.baseline),
          ),
          field(
            "Comparison framing",
            selectOf("comparison", "default", [...names.framings], filters.comparison, asked.comparison),
          ),
        ]),
  );
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The group chosen in a comparison or report leaderboard: the player filter when groups are players. */
function selectedGroup(data: DashboardData, filters: Filters): string {
  return data.source === "compare" && data.leaderboard && data.leaderboard.by !== "player"
    ? filters.group
    : (filters.player ?? "");
}

form.addEventListener("change", (event) => {
  const target = event.target as HTMLInputElement | HTMLSelectElement;
  const name = target.name as keyof Filters;
  if (!(name in state.filters)) return;
  if (target instanceof HTMLSelectElement && target.multiple) {
    state.filters = { ...state.filters, [name]: [...target.selectedOptions].map((o) => o.value) };
    void rerun();
    return;
  }
  // The model's own choice of several names, chosen again, is the untouched filter.
  const value = target.value === ASKED ? null : target.value.trim();
  state.filters = { ...state.filters, [name]: value };
  void rerun();
});
form.addEventListener("submit", (event) => event.preventDefault());

/**
 * Calls the tool that produced the view again, with the filters as arguments, and shows its result. Each
 * call supersedes the one before: that one is cancelled through the host, and its answer, should it come
 * anyway, is dropped.
 */
async function rerun(): Promise<void> {
  const data = state.data;
  if (!data) return;
  const request = ++state.request;
  state.running?.abort();
  state.running = null;
  setStale(false);
  const args = toolArguments(data.source, state.args, state.filters);
  if (!args) {
    setStatus("Choose both framings of the pair (or neither for the default pair).");
    return;
  }
  // The tool would refuse a pair of one framing: said at once, with no call.
  const twice = framingTwice(data.source, args);
  if (twice !== null) {
    setStatus(
      `Choose two different framings: ${twice} is both the baseline and the comparison. The result shown is for ${filtersText(state.shownArgs)}.`,
    );
    return;
  }
  // A filter the tool does not take (player or game for report) only changes what the view shows.
  if (JSON.stringify(args) === JSON.stringify(state.shownArgs)) {
    setStatus("");
    return render();
  }
  const running = new AbortController();
  state.running = running;
  // Until the answer comes, the charts are the previous result's: the status line says which filters they show.
  setStale(true);
  setStatus(
    `Running ${data.source} for ${filtersText(args)}… The result shown is for ${filtersText(state.shownArgs)}.`,
  );
  const latest = () => request === state.request;
  try {
    const result = await app.callServerTool(
      { name: data.source, arguments: args },
      { signal: running.signal },
    );
    if (!latest()) return;
    state.running = null;
    setStale(false);
    if (result.isError) return setStatus(textOf(result) || `${data.source} failed.`, true);
    const next = result.structuredContent
      ? dashboardData(result.structuredContent as Record<string, unknown>)
      : null;
    if (!next) return setStatus(`${data.source} returned no structured result.`, true);
    state.data = next;
    state.shownArgs = args;
    remember(next);
    setStatus("");
    await render();
  } catch (error) {
    // A superseded call was cancelled on purpose: the newer one speaks for the view.
    if (!latest()) return;
    state.running = null;
    setStale(false);
    setStatus(error instanceof Error ? error.message : String(error), true);
  }
}

/** Marks the charts as an older choice's result while a newer one runs. */
function setStale(stale: boolean): void {
  if (stale) main.dataset.stale = "";
  else delete main.dataset.stale;
  main.setAttribute("aria-busy", String(stale));
}

/** The filters of a call as read: "games snowdrift, framings business → team", or "no filter". */
function filtersText(args: Record<string, unknown>): string {
  const list = (key: string) =>
    Array.isArray(args[key]) ? (args[key] as unknown[]).map(String) : ([] as string[]);
  const parts = [
    list("players").length > 0 ? `players ${list("players").join(", ")}` : "",
    list("games").length > 0 ? `games ${list("games").join(", ")}` : "",
    // repeated_metrics' framings are a plain list; the others' a baseline and what it is compared with.
    list("framings").length > 0
      ? `framings ${list("framings").join(state.data?.source === "repeated_metrics" ? ", " : " → ")}`
      : "",
    typeof args.study_id === "string" ? `study ${args.study_id}` : "",
  ].filter((p) => p !== "");
  return parts.length > 0 ? parts.join("; ") : "no filter";
}

/** The text a tool result carries (the sentence of a failed call). */
function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? [])
    .map((c) => (c.type === "text" ? (c.text ?? "") : ""))
    .join(" ")
    .trim();
}

function describe(data: DashboardData): string {
  const study = data.study ? ` · study ${data.study.name}` : "";
  if (data.source === "repeated_metrics") return `repeated_metrics · ${data.repeated.length} cell(s)${study}`;
  if (data.source === "compare" && data.leaderboard) {
    const board = data.leaderboard;
    const groups = new Set(board.rows.map((r) => r.group)).size;
    return `compare · ${groups} ${board.by}s · ${board.framings.join(", ")}${board.study_id ? ` · study ${board.study_id}` : ""}`;
  }
  const framings = data.robustness ? ` · ${data.robustness.framings.join(" → ")}` : "";
  return `${data.source}${framings}${study}`;
}

async function render(): Promise<void> {
  const data = state.data;
  if (!data) return;
  const generation = ++state.generation;
  document.body.dataset.ready = "false";
  (header.querySelector("[data-source]") as HTMLElement).textContent = describe(data);
  renderFilters();
  const charts: PendingChart[] = [];
  const ctx = {
    data,
    filters: state.filters,
    width: state.width,
    charts,
    openCell: (cell: ClickedDatum & { variant?: string; opponent?: string }) => void openCell(cell),
    selectedGroup: selectedGroup(data, state.filters),
    selectGroup: (group: string) => {
      const field = data.source === "compare" && data.leaderboard?.by !== "player" ? "group" : "player";
      state.filters = { ...state.filters, [field]: group };
      void rerun();
    },
  };
  const sections = [
    cooperationSection,
    robustnessSection,
    leaderboardSection,
    pairsSection,
    sensitivitySection,
    repeatedSection,
    checksSection,
  ]
    .map((make) => make(ctx))
    .filter((s): s is HTMLElement => s !== null);
  main.replaceChildren(...sections);
  try {
    for (const chart of charts) {
      if (generation !== state.generation) return;
      await drawChart(chart.container, chart.spec, { theme: state.theme, width: state.width }, chart.onClick);
    }
  } catch (error) {
    // A chart that cannot be drawn says why, in the view and to the host's log, instead of a blank panel.
    setStatus(`Could not draw the charts: ${error instanceof Error ? error.message : String(error)}`, true);
    document.body.dataset.ready = "error";
    void app.sendLog({ level: "error", data: String(error) }).catch(() => undefined);
    return;
  }
  if (generation === state.generation) {
    document.body.dataset.ready = "true";
    document.body.dataset.source = data.source;
  }
}

/** A click on a cell: its matches, each opening its transcript. */
async function openCell(cell: ClickedDatum & { variant?: string; opponent?: string }): Promise<void> {
  // One-shot analyses read the base variant unless the model asked for another (the tools' default).
  const variant = cell.variant ?? (typeof state.args.variant === "string" ? state.args.variant : "base");
  const args: Record<string, unknown> = { player: cell.player };
  if (cell.game) args.game = cell.game;
  if (cell.framing) args.framing = cell.framing;
  args.variant = variant;
  if (cell.opponent) args.opponent = cell.opponent;
  // The study of the result on screen, whether the model or the analyst chose it.
  if (typeof state.shownArgs.study_id === "string") args.study_id = state.shownArgs.study_id;
  await matchesPanel(app, matches, args, setStatus);
}

function applyContext(ctx: McpUiHostContext | undefined): void {
  if (!ctx) return;
  let changed = false;
  if (ctx.theme && ctx.theme !== state.theme) {
    state.theme = ctx.theme;
    changed = true;
  }
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  const dims = ctx.containerDimensions as { width?: number; maxWidth?: number } | undefined;
  const width = dims?.width ?? dims?.maxWidth;
  if (width && width !== state.width) {
    state.width = width;
    changed = true;
  }
  if (changed && state.data) void render();
}

app.ontoolinput = (params) => {
  state.args = { ...(params.arguments ?? {}) };
  state.shownArgs = state.args;
};
app.ontoolresult = (result) => {
  const data = result.structuredContent
    ? dashboardData(result.structuredContent as Record<string, unknown>)
    : null;
  if (!data) {
    // Nothing to draw: say what the server said (its sentence names the bad value and the valid ones).
    const tool = app.getHostContext()?.toolInfo?.tool.name ?? "The analysis";
    (header.querySelector("[data-source]") as HTMLElement).textContent = result.isError
      ? `${tool} failed`
      : `${tool}: no result to draw`;
    setStatus(
      result.isError ? textOf(result) || `${tool} failed without saying why.` : "No analysis result to show.",
      true,
    );
    document.body.dataset.ready = "error";
    return;
  }
  state.data = data;
  remember(data);
  void render();
};
// The host sends this instead of a result when the user (or the host) stops the call: the view says so,
// rather than waiting for a result that will not come.
app.ontoolcancelled = ({ reason }) => {
  const tool = app.getHostContext()?.toolInfo?.tool.name ?? "The analysis";
  const why = reason?.trim() ? `: ${reason.trim()}` : "";
  // A result already on screen stays; the line under the filters says the call was stopped.
  if (!state.data) {
    (header.querySelector("[data-source]") as HTMLElement).textContent = `${tool} cancelled`;
    document.body.dataset.ready = "cancelled";
  }
  setStatus(`The analysis was cancelled${why}.`, true);
};
app.onhostcontextchanged = (ctx) => applyContext(ctx);
window.addEventListener("resize", () => {
  const dims = app.getHostContext()?.containerDimensions as { width?: number } | undefined;
  if (dims?.width) return;
  const width = document.documentElement.clientWidth;
  if (Math.abs(width - state.width) > 8 && state.data) {
    state.width = width;
    void render();
  }
});

app.connect().then(
  () => applyContext(app.getHostContext()),
  (error: unknown) => setStatus(`Could not connect to the host: ${String(error)}`, true),
);
