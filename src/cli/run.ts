import { loadCatalog, userCatalogDir } from "../domain/catalog.js";
import { catalogArgument } from "../domain/shipped-catalogs.js";
import { logLine } from "../log.js";
import { loadStudy } from "../play/studies.js";
import { printableLines } from "../queries/format.js";
import { catalogGapNamed } from "../queries/outside-catalog.js";
import { shellWord } from "../queries/shell-word.js";
import { csvList } from "../report/label-list.js";
import { anthropicEndpoint } from "../runner/anthropic-endpoint.js";
import { unsendableKeyCharacter } from "../runner/api-key-header.js";
import type { BatchSettings } from "../runner/batch/run-batch.js";
import { Budget, type BudgetLimits, type Spend } from "../runner/budget/budget.js";
import { type RecordStanding, recordStanding } from "../runner/budget/earlier-spend.js";
import { callCost, type ModelPrice, priceOf, readPriceTable } from "../runner/budget/prices.js";
import { defaultCacheDir, ResponseCache } from "../runner/cache/response-cache.js";
import { type Decoding, type ModelEndpoint, type Provider, sentence } from "../runner/endpoint.js";
import { checkedBaseUrl, checkedServerUrl } from "../runner/endpoint-url.js";
import { openAiEndpoint } from "../runner/openai-endpoint.js";
import { lineProgress, terminalProgress } from "../runner/progress.js";
import { DEFAULT_RETRY } from "../runner/retry.js";
import { RunLease } from "../runner/run-lease.js";
import { type RunTotal, runStudy, type SeatOptions } from "../runner/run-study.js";
import type { ServerTarget } from "../runner/server-connection.js";
import { styleNamed } from "../runner/styles.js";
import { summaryText } from "../runner/summary.js";
import { isPostgresUrl } from "../store/engines/database-location.js";
import { canWriteRecord } from "../store/open-record.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { type Command, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { isMissingFile, recordName, resolveDatabasePath } from "./database-path.js";
import { type RunSignals, STOPPED_BEFORE_ANY_TRIAL, signalExitCode, takeOverSignals } from "./run-signals.js";
import { namingStudyIds } from "./unknown-study.js";

const PROVIDERS: readonly Provider[] = ["openai", "anthropic"];
const MODES = ["tools", "text"] as const;
const DEFAULT_KEY_VARIABLE: Record<Provider, string> = {
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
};

export const runCommand: Command = {
  name: "run",
  usage: [
    "same-game run --study ID --model NAME [--provider openai|anthropic] [--base-url URL] [--api-key-env VAR]",
    "              [--player LABEL] [--mode tools|text] [--style zero-shot|cot|persona] [--samples K]",
    "              [--temperature T] [--max-tokens N] [--concurrency N] [--max-trials N] [--timeout SECONDS]",
    "              [--retries N] [--max-wait SECONDS] [--opponent-model NAME [--opponent-provider P] [--opponent-base-url URL]",
    "              [--opponent-api-key-env VAR] [--opponent-player LABEL]]",
    "              [--db PATH | --server URL [--server-token-env VAR]]",
    "              [--cache [DIR]] [--prices FILE] [--max-cost USD] [--max-tokens-total N] [--max-calls N]",
    "              [--batch [--batch-size N]]",
    "  Keys come from the environment (OPENAI_API_KEY / ANTHROPIC_API_KEY, or --api-key-env VAR) and are",
    "  never written anywhere. A local server (Ollama, vLLM) with --base-url needs no key.",
    "  --max-wait SECONDS: the longest wait between retries, and the most of a Retry-After obeyed (30).",
    "  Ctrl-C or SIGTERM stops the run; the same command resumes it. One run at a time plays a study for a",
    "  player in a --db record; another is refused while it lives (see docs/cli.md, One run per player).",
    "  --cache [DIR]: reuse a reply when provider, URL, model, request, decoding and sample all match (and,",
    "  unless --temperature 0, the trial); DIR defaults to $SAME_GAME_CACHE_DIR, else an absolute",
    "  $XDG_CACHE_HOME/same-game/responses, else ~/.cache/same-game/responses (see same-game cache).",
    '  --prices FILE: {"MODEL": {"input_per_mtok": USD, "output_per_mtok": USD}}, for --max-cost and the',
    "  recorded spend. A budget stops the run before it could be passed; a larger one resumes it.",
    "  --batch: text mode through the provider's batch API (about half price, replies within 24 h), chunks of",
    "  --batch-size requests (1000); the batch ids are kept in the --db record, so the same command resumes.",
  ].join("\n"),
  options: {
    study: { type: "string" },
    model: { type: "string" },
    provider: { type: "string" },
    "base-url": { type: "string" },
    "api-key-env": { type: "string" },
    player: { type: "string" },
    mode: { type: "string" },
    style: { type: "string" },
    samples: { type: "string" },
    temperature: { type: "string" },
    "max-tokens": { type: "string" },
    concurrency: { type: "string" },
    "max-trials": { type: "string" },
    timeout: { type: "string" },
    retries: { type: "string" },
    "max-wait": { type: "string" },
    "opponent-model": { type: "string" },
    "opponent-provider": { type: "string" },
    "opponent-base-url": { type: "string" },
    "opponent-api-key-env": { type: "string" },
    "opponent-player": { type: "string" },
    db: { type: "string" },
    server: { type: "string" },
    "server-token-env": { type: "string" },
    cache: { type: "string" },
    prices: { type: "string" },
    "max-cost": { type: "string" },
    "max-tokens-total": { type: "string" },
    "max-calls": { type: "string" },
    batch: { type: "boolean" },
    "batch-size": { type: "string" },
  },
  optionalValues: ["cache"],
  async run(args) {
    // First of all: a signal while the flags are read, the record is opened or the server starts is a
    // clean stop too, never a silent exit with a half-taken lease.
    const signals = takeOverSignals();
    try {
      await planAndPlay(args, signals);
    } finally {
      signals.release();
    }
  },
};

async function planAndPlay(args: ParsedArgs, signals: RunSignals): Promise<void> {
  if (args.positionals.length > 0) {
    throw new UsageError(`run takes no positional arguments, got "${args.positionals.join(" ")}".`);
  }
  const studyId = required(args, "study");
  const batch = args.values.batch === true;
  const mode = oneOf(args, "mode", MODES) ?? (batch ? "text" : "tools");
  const samples = numberFlag(args, "samples", { min: 1, max: 25, integer: true }) ?? 1;
  if (samples > 1 && mode !== "text") {
    throw new UsageError(`--samples ${samples} needs --mode text (majority voting reads text replies).`);
  }
  const style = styleNamed(stringFlag(args, "style") ?? "zero-shot");
  const decoding: Decoding = {
    ...(args.values.temperature !== undefined
      ? { temperature: numberFlag(args, "temperature", { min: 0, max: 2 }) as number }
      : {}),
    max_tokens: numberFlag(args, "max-tokens", { min: 1, max: 1_000_000, integer: true }) ?? 1024,
  };
  const pricesPath = stringFlag(args, "prices");
  const prices = pricesPath === undefined ? null : readPriceTable(pricesPath);
  const limits = budgetLimitsOf(args, pricesPath);
  const seat = (prefix: "" | "opponent-", model: string): SeatOptions => ({
    endpoint: endpointFor(args, prefix, model, decoding),
    player: stringFlag(args, `${prefix}player`) ?? model,
    mode,
    style,
    samples,
    price: prices && pricesPath ? priceOf(prices, model, pricesPath) : null,
  });
  const main = seat("", required(args, "model"));
  const opponentModel = stringFlag(args, "opponent-model");
  const opponent = opponentModel === undefined ? undefined : seat("opponent-", opponentModel);
  if (opponent && opponent.player === main.player) {
    throw new UsageError(
      `--opponent-model plays as "${opponent.player}", the same label as --model; give it --opponent-player LABEL.`,
    );
  }
  const target = serverTarget(args);
  const cache = cacheOf(args);
  // The lease is taken before the record is read for the budget: what it reads is then this run's alone.
  const lease = target.kind === "stdio" ? takeLease(target.dbPath, studyId, main.player) : null;
  // A second signal exits at once; the lease goes with the process all the same.
  const releaseOnExit = () => lease?.release();
  process.on("exit", releaseOnExit);
  try {
    if (signals.interrupt.aborted) return stoppedBeforeAnyTrial(signals);
    await playStudy(args, {
      studyId,
      batch,
      mode,
      decoding,
      prices,
      limits,
      main,
      opponent,
      target,
      cache,
      lease,
      signals,
    });
  } finally {
    lease?.release();
    process.off("exit", releaseOnExit);
  }
}

/** A signal came before the server was started: nothing was dealt or recorded (the lease goes in `finally`). */
function stoppedBeforeAnyTrial(signals: RunSignals): void {
  process.stdout.write(`${STOPPED_BEFORE_ANY_TRIAL}\n`);
  process.exitCode = signalExitCode(signals.stoppedBy() ?? "SIGINT");
}

interface RunPlan {
  readonly studyId: string;
  readonly batch: boolean;
  readonly mode: (typeof MODES)[number];
  readonly decoding: Decoding;
  readonly prices: ReturnType<typeof readPriceTable> | null;
  readonly limits: BudgetLimits;
  readonly main: SeatOptions;
  readonly opponent: SeatOptions | undefined;
  readonly target: ServerTarget;
  readonly cache: ResponseCache | null;
  readonly lease: RunLease | null;
  readonly signals: RunSignals;
}

async function playStudy(args: ParsedArgs, plan: RunPlan): Promise<void> {
  const { studyId, batch, mode, decoding, prices, limits, main, opponent, target, cache, lease, signals } =
    plan;
  // A budget is the player's in the study: what the record holds of earlier runs counts against it.
  const standing =
    target.kind === "stdio" ? readStanding(target.dbPath, studyId, main.player, main.price) : null;
  const budget = budgetOf(limits, {
    earlier: standing?.earlier,
    priced: prices !== null,
    firstTrialFloor: firstTrialFloor(opponent ? [main, opponent] : [main], decoding.max_tokens),
  });
  const unreported = standing?.earlier.unreported ?? 0;
  if (budget?.countsTokens && unreported > 0) {
    // Earlier calls of unknown size cannot be counted against a limit of tokens or dollars.
    throw new UsageError(
      `The record holds ${unreported} call${unreported === 1 ? "" : "s"} of "${main.player}" in ${studyId} whose endpoint reported no token usage, so --max-tokens-total and --max-cost cannot be kept; run without them (--max-calls needs no usage).`,
    );
  }
  if (budget && target.kind === "http") {
    logLine(
      "same-game run",
      "the spend of earlier runs is in the server's record, which --server does not read: the budget counts this run's calls only.",
    );
  }
  const batchSettings = batch ? batchOf(args, mode, opponent !== undefined, target) : undefined;
  if (!batch && args.values["batch-size"] !== undefined) {
    throw new UsageError("--batch-size needs --batch.");
  }
  const retries = numberFlag(args, "retries", { min: 0, max: 100, integer: true });
  // The longest backoff between retries, and the most of a Retry-After the run obeys.
  const maxWait = numberFlag(args, "max-wait", { min: 0, max: 3600 });
  const progress = process.stderr.isTTY
    ? terminalProgress((text) => process.stderr.write(text))
    : lineProgress((text) => process.stderr.write(text));
  // Ctrl-C, or SIGTERM: the run stops, a summary is printed with how to resume; a second signal quits at
  // once (run-signals.ts).
  const interrupt = new AbortController();
  if (signals.interrupt.aborted) interrupt.abort();
  else signals.interrupt.addEventListener("abort", () => interrupt.abort(), { once: true });
  let leaseLost = false;
  lease?.keepAlive(() => {
    leaseLost = true;
    logLine(
      "same-game run",
      `another run took over study ${studyId} for player "${main.player}" while this one did not renew its lease; stopping.`,
    );
    interrupt.abort();
  });
  // A signal while the record was read: the server is not started for nothing.
  if (interrupt.signal.aborted) return stoppedBeforeAnyTrial(signals);
  const played = await runStudy({
    batch: batchSettings,
    interrupt: interrupt.signal,
    studyId,
    target,
    seat: main,
    opponent,
    concurrency: numberFlag(args, "concurrency", { min: 1, max: 256, integer: true }) ?? 4,
    maxTrials: numberFlag(args, "max-trials", { min: 1, max: 10_000_000, integer: true }),
    timeoutMs: (numberFlag(args, "timeout", { min: 0.1, max: 3600 }) ?? 120) * 1000,
    cache,
    budget,
    ...(standing ? { before: standing.before } : {}),
    retry: {
      ...DEFAULT_RETRY,
      ...(retries === undefined ? {} : { retries }),
      ...(maxWait === undefined ? {} : { maxDelayMs: maxWait * 1000 }),
    },
    onProgress: progress,
    // On a terminal the progress line is redrawn in place: the failure starts a line of its own. The
    // message may quote the endpoint (or the --server) word for word: logLine keeps it one bounded,
    // printable line.
    onTrialError: (matchId, message) => {
      if (process.stderr.isTTY) process.stderr.write("\n");
      logLine("same-game run", `trial ${matchId} failed: ${message}`);
    },
  });
  signals.release();
  // The server the runner plays on is the player's, which never says why games stopped early; the
  // record does, when the runner can read it.
  const summary =
    played.complete && target.kind === "stdio"
      ? {
          ...played,
          stoppedEarly: readStanding(target.dbPath, studyId, main.player, main.price).before.stoppedEarly,
        }
      : played;
  batchSettings?.ledger.close();
  if (process.stderr.isTTY) process.stderr.write("\n");
  const fromEnvironment = args.values.db === undefined;
  // The summary may quote the endpoint (why the run stopped): its lines as they are, every other control
  // character escaped.
  process.stdout.write(
    `${printableLines(
      summaryText(
        summary,
        studyAnalyses(target, studyId, summary.total.dealt).map((analysis) =>
          analyseCommand(analysis, studyId, main.player, target, fromEnvironment),
        ),
      ),
    )}\n`,
  );
  if (leaseLost) {
    process.exitCode = 1;
  } else if (summary.interrupted) {
    process.exitCode = signalExitCode(signals.stoppedBy() ?? "SIGINT");
  } else if (summary.stats.budgetStop !== null) {
    // A budget reached is the stop the user asked for: the summary says what was spent and how to go on.
  } else if (summary.stats.stopReason !== null) {
    logLine("same-game run", `stopped: ${sentence(summary.stats.stopReason)}.`);
    process.exitCode = 1;
  } else if (summary.leftOpen > 0) {
    // The schedule has holes: `run && report` in a script must not go on as if the study were whole.
    process.stderr.write(
      `same-game run: ${summary.leftOpen} trial(s) failed and are left open: run the same command again to resume them.\n`,
    );
    process.exitCode = 1;
  }
}

/** The run's lease of (study, player) in the --db record, or one sentence naming the run that holds it. */
function takeLease(dbPath: string, studyId: string, player: string): RunLease {
  const store = new Store(dbPath);
  try {
    return RunLease.take(store, studyId, player, recordName(dbPath));
  } catch (error) {
    store.close();
    throw error;
  }
}

/**
 * The command that runs `analysis` on what the run recorded, ready to paste: every value a shell word, and the
 * catalog the record's games need. A PostgreSQL URL is never printed with its password: one the run read
 * from SAME_GAME_DB is left out (the command reads the same variable), one given with --db is shown
 * with the password as ***, for the user to put back.
 */
function analyseCommand(
  analysis: StudyAnalysis,
  studyId: string,
  player: string,
  target: ServerTarget,
  fromEnvironment: boolean,
): string {
  const words = ["same-game", "analyze", analysis, "--study", shellWord(studyId)];
  words.push("--players", shellWord(csvList([player])));
  if (target.kind === "stdio" && !(fromEnvironment && isPostgresUrl(target.dbPath))) {
    words.push("--db", shellWord(recordName(target.dbPath)));
  }
  const catalog = userCatalogDir();
  if (catalog !== undefined) words.push("--catalog", shellWord(catalogArgument(catalog)));
  return words.join(" ");
}

/** The analyses a run's summary points to: `robustness` reads one-shot games, `repeated` repeated ones. */
type StudyAnalysis = "robustness" | "repeated";

/**
 * The analyses the study's games take, read from its design in the --db record: `analyze robustness` has
 * nothing to say of a study of repeated games alone (it exits 2), which `analyze repeated` measures.
 * Through --server the runner cannot read the design, nor where the record cannot be read now: then the
 * trials this run was dealt say which games it played, and without any, robustness, the one-shot lines'.
 */
function studyAnalyses(target: ServerTarget, studyId: string, dealt: RunTotal["dealt"]): StudyAnalysis[] {
  const played: StudyAnalysis[] = [
    ...(dealt?.oneShot ? (["robustness"] as const) : []),
    ...(dealt?.repeated ? (["repeated"] as const) : []),
  ];
  const fromTrials = played.length > 0 ? played : (["robustness"] as StudyAnalysis[]);
  if (target.kind !== "stdio") return fromTrials;
  let store: Store | null = null;
  try {
    // Read only, and without the page scan the run's start already made (seconds on a large record).
    store = new Store(target.dbPath, { readonly: true, pagesChecked: true });
    const catalog = loadCatalog();
    const { design } = loadStudy({ store, catalog }, studyId);
    const rounds = design.games.map((game) => catalog.game(game).rounds);
    return [
      ...(rounds.some((n) => n === 1) ? (["robustness"] as const) : []),
      ...(rounds.some((n) => n > 1) ? (["repeated"] as const) : []),
    ];
  } catch {
    // The study was read when the run started; should the record refuse now, the summary still ends.
    return fromTrials;
  } finally {
    store?.close();
  }
}

/**
 * `--cache` (the default folder) or `--cache DIR`; null without the flag. The folder is checked before the
 * first call: a cache that cannot keep a reply would only be found out after paying for it.
 */
function cacheOf(args: ParsedArgs): ResponseCache | null {
  const dir = stringFlag(args, "cache");
  if (dir === undefined) return null;
  const cache = new ResponseCache(dir === "" ? defaultCacheDir() : dir, (message) =>
    logLine("same-game run", message),
  );
  const problem = cache.unwritableReason();
  if (problem !== null) {
    throw new UsageError(
      `The response cache folder ${cache.dir} is not writable: ${problem}. Choose another with --cache DIR (or SAME_GAME_CACHE_DIR=DIR).`,
    );
  }
  return cache;
}

/** The most requests per batch unless --batch-size says otherwise: a study's worth of trials per file. */
const DEFAULT_BATCH_SIZE = 1000;

/** `--batch`: one seat in text mode, and a record the runner can open itself to keep the batch ids in. */
function batchOf(args: ParsedArgs, mode: string, withOpponent: boolean, target: ServerTarget): BatchSettings {
  if (mode !== "text") {
    throw new UsageError(`--batch needs --mode text (a batch holds one-shot requests), got --mode ${mode}.`);
  }
  if (withOpponent) throw new UsageError("--batch plays one seat; it cannot be used with --opponent-model.");
  if (target.kind !== "stdio") {
    throw new UsageError(
      "--batch keeps its batch ids in the record, so it needs --db PATH (a record it can open), not --server.",
    );
  }
  const size = numberFlag(args, "batch-size", { min: 1, max: 100_000, integer: true }) ?? DEFAULT_BATCH_SIZE;
  return {
    size,
    ledger: new Store(target.dbPath),
    onWarning: (message) => logLine("same-game run", message),
  };
}

function budgetLimitsOf(args: ParsedArgs, pricesPath: string | undefined): BudgetLimits {
  const limits: BudgetLimits = {
    calls: numberFlag(args, "max-calls", { min: 1, max: 1e12, integer: true }),
    tokens: numberFlag(args, "max-tokens-total", { min: 1, max: 1e15, integer: true }),
    costUsd: numberFlag(args, "max-cost", { min: 0, max: 1e9 }),
  };
  if (limits.costUsd !== undefined && pricesPath === undefined) {
    throw new UsageError(
      `--max-cost ${limits.costUsd} needs --prices FILE, the price per million input and output tokens of each model.`,
    );
  }
  return limits;
}

function budgetOf(limits: BudgetLimits, options: ConstructorParameters<typeof Budget>[1]): Budget | null {
  const budget = new Budget(limits, options);
  return budget.limited ? budget : null;
}

/**
 * The least a first trial may cost, before any prompt is known: one call per seat, each answered with
 * the longest reply --max-tokens allows, at the seat's output price.
 */
function firstTrialFloor(seats: readonly SeatOptions[], maxTokens: number): Spend {
  return {
    calls: seats.length,
    tokens: seats.length * maxTokens,
    costUsd: seats.reduce((sum, seat) => sum + (seat.price ? callCost(seat.price, 0, maxTokens) : 0), 0),
  };
}

/** The player's standing in the study from the --db record; an unknown study id names the ones it holds. */
function readStanding(
  dbPath: string,
  studyId: string,
  player: string,
  price: ModelPrice | null,
): RecordStanding {
  const store = new Store(dbPath);
  try {
    return namingStudyIds(store, () => recordStanding(store, studyId, player, price));
  } catch (error) {
    // A study of the user's own games, run without their catalog: said as such, with the games named.
    throw catalogGapNamed(store, loadCatalog(), error);
  } finally {
    store.close();
  }
}

function required(args: ParsedArgs, name: string): string {
  const value = stringFlag(args, name);
  if (value === undefined || value.trim() === "") throw new UsageError(`run needs --${name}.`);
  return value;
}

function oneOf<T extends string>(args: ParsedArgs, name: string, valid: readonly T[]): T | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!(valid as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${valid.join(", ")}, got "${value}".`);
  }
  return value as T;
}

/** The endpoint of one seat; its key is read from the environment here and goes only to the client. */
function endpointFor(args: ParsedArgs, prefix: string, model: string, decoding: Decoding): ModelEndpoint {
  const provider =
    oneOf(args, `${prefix}provider`, PROVIDERS) ??
    (prefix ? oneOf(args, "provider", PROVIDERS) : undefined) ??
    "openai";
  const variable =
    stringFlag(args, `${prefix}api-key-env`) ??
    (prefix ? stringFlag(args, "api-key-env") : undefined) ??
    DEFAULT_KEY_VARIABLE[provider];
  const ownBaseUrl = stringFlag(args, `${prefix}base-url`);
  const baseUrlFlag = ownBaseUrl === undefined && prefix ? "base-url" : `${prefix}base-url`;
  const givenBaseUrl = ownBaseUrl ?? (prefix ? stringFlag(args, "base-url") : undefined);
  const baseURL =
    givenBaseUrl === undefined ? undefined : checkedBaseUrl(baseUrlFlag, givenBaseUrl, variable);
  const key = process.env[variable];
  const ownFlag = stringFlag(args, `${prefix}api-key-env`) !== undefined;
  const named = ownFlag
    ? `--${prefix}api-key-env`
    : prefix && stringFlag(args, "api-key-env")
      ? "--api-key-env"
      : null;
  if ((key === undefined || key === "") && named !== null) {
    // A variable named on purpose holds a key the endpoint expects: sending none would only fail later, as 401s.
    throw new UsageError(
      `${named} ${variable}: that environment variable is not set (or empty); set it, or leave the flag out for a local server that needs no key.`,
    );
  }
  if ((key === undefined || key === "") && baseURL === undefined) {
    throw new UsageError(
      `run needs an API key for ${provider} in the environment variable ${variable} (or --${prefix}api-key-env VAR), or --${prefix}base-url of a local server.`,
    );
  }
  const unsendable = key ? unsendableKeyCharacter(key) : null;
  if (unsendable !== null) {
    // Named by position and code, never shown: the rest of the value is a secret.
    throw new UsageError(
      `the API key in ${variable} holds character ${unsendable.position} (U+${unsendable.code.toString(16).toUpperCase().padStart(4, "0")}), which no HTTP header can carry: set the variable to the key alone.`,
    );
  }
  // Local servers (Ollama, vLLM, llama.cpp) ignore the key, but the client libraries want one.
  const apiKey = key || "no-key";
  const options = { model, baseURL, apiKey, decoding };
  return provider === "anthropic" ? anthropicEndpoint(options) : openAiEndpoint(options);
}

function serverTarget(args: ParsedArgs): ServerTarget {
  const url = stringFlag(args, "server");
  if (url === undefined) {
    const dbPath = resolveDatabasePath(stringFlag(args, "db"), process.env, { create: false });
    // A study runs in the record it was registered in, so a record that does not exist holds none; the
    // server started on it would create an empty file before saying so.
    if (isMissingFile(dbPath)) {
      throw new UsageError(
        `No record at ${dbPath}; check --db (a study runs in the record it was registered in: same-game study register FILE.json --db PATH).`,
      );
    }
    // Analyses read a record on read-only media as it is; a run records every trial in it.
    if (!isPostgresUrl(dbPath) && !canWriteRecord(dbPath)) {
      throw new UsageError(
        `${dbPath} is read-only here (the file or its folder cannot be written), and run records every trial in it: copy the record somewhere writable and give that with --db.`,
      );
    }
    const catalog = userCatalogDir();
    return { kind: "stdio", dbPath, ...(catalog === undefined ? {} : { catalog }) };
  }
  if (args.values.db !== undefined) throw new UsageError("run takes --db PATH or --server URL, not both.");
  checkedServerUrl(url);
  const tokenVariable = stringFlag(args, "server-token-env");
  const token = tokenVariable === undefined ? undefined : process.env[tokenVariable];
  if (tokenVariable !== undefined && !token) {
    throw new UsageError(`--server-token-env ${tokenVariable}: that environment variable is not set.`);
  }
  return { kind: "http", url, token };
}
