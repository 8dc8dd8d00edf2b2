import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Catalog, loadCatalog } from "../domain/catalog.js";
import type { StudyDesign } from "../domain/study-design.js";
import { parseCountsCsv } from "../imports/counts-csv.js";
import { packageRoot } from "../package-root.js";
import { reportData } from "../queries/report-data-query.js";
import {
  REFERENCE_DATASETS,
  type ReferenceDataset,
  referenceDataDirectory,
} from "../reference-data/reference-data.js";
import { renderReportHtml } from "../report/render-report.js";
import type { ReportData } from "../report/report-data.js";
import { isPostgresUrl, redactUrl } from "../store/engines/database-location.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { oneShotDemoDesign, repeatedDemoDesign } from "./demo-studies.js";
import { REFERENCE_AGENTS } from "./reference-agents.js";
import { callTool, connectAgent, playStudy, type ServerLaunch } from "./stdio-player.js";

/** The published counts the demo sets beside its agents: shipped in the package's data/ folder. */
export const PUBLISHED_REFERENCE = "lore-heydari-2024";
export const PUBLISHED_COUNTS = join(
  referenceDataDirectory(),
  (REFERENCE_DATASETS.find((d) => d.id === PUBLISHED_REFERENCE) as ReferenceDataset).file,
);

/** Sessions each agent's one-shot trials are spread over: enough clusters for the session bootstrap. */
const ONE_SHOT_SESSIONS = 8;
const REPEATED_SESSIONS = 2;

export interface DemoOptions {
  /** A database file that does not exist yet; default a fresh temp folder's demo.db. */
  dbPath?: string;
  seed?: number;
  /** Trials per one-shot cell (game × framing) for every agent. */
  trialsPerCell?: number;
  /** Matches per repeated cell (opponent) for every agent. */
  repeatedTrialsPerCell?: number;
  /** Where the HTML report goes; default report.html beside the database. */
  out?: string;
  bootstrap?: number;
  /** The published counts CSV; null to skip. Default PUBLISHED_COUNTS when it exists. */
  publishedCounts?: string | null;
  /** The built CLI the agents' servers run; default dist/cli/main.js of this package. */
  cliPath?: string;
  /** Called after every finished trial with the running total and the planned total. */
  onProgress?: (done: number, total: number) => void;
}

export interface DemoStudy {
  study_id: string;
  name: string;
  trials_per_player: number;
}

export interface DemoResult {
  dbPath: string;
  reportPath: string;
  studies: DemoStudy[];
  /** The imported published counts file, or null with the reason it was not imported. */
  published: { path: string; imported: true } | { path: string; imported: false; reason: string };
  report: ReportData;
  timings: { play_seconds: number; analysis_seconds: number };
}

/**
 * The whole demo: a fresh record, two registered studies, the three reference agents playing them over
 * stdio MCP (agents in parallel, each agent's sessions one after another so the seed fixes its play),
 * the published counts beside them, and the analysed record as ReportData plus an HTML report.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoResult> {
  const seed = options.seed ?? 1;
  const dbPath = freshDatabasePath(options.dbPath);
  const launch: ServerLaunch = {
    cliPath: options.cliPath ?? join(packageRoot(), "dist", "cli", "main.js"),
    dbPath,
  };
  if (!existsSync(launch.cliPath)) {
    throw new UsageError(
      `The demo runs the built server ${launch.cliPath}, which is missing; run npm run build.`,
    );
  }
  const designs: [StudyDesign, number][] = [
    [oneShotDemoDesign(options.trialsPerCell ?? 20, seed), ONE_SHOT_SESSIONS],
    [repeatedDemoDesign(options.repeatedTrialsPerCell ?? 3, seed), REPEATED_SESSIONS],
  ];

  // The record is created here before any server is spawned: what keeps it from opening (a folder not
  // writable, an SQLite driver built for another Node.js) is then one line, not a spawned server's silent
  // exit that the MCP client reports only as "Connection closed".
  new Store(dbPath).close();

  const started = performance.now();
  const studies = await registerStudies(
    launch,
    designs.map(([design]) => design),
  );
  const total = REFERENCE_AGENTS.length * studies.reduce((sum, s) => sum + s.trials_per_player, 0);
  let done = 0;
  options.onProgress?.(done, total);
  await Promise.all(
    REFERENCE_AGENTS.map(async (agent) => {
      for (const [i, study] of studies.entries()) {
        const sessions = (designs[i] as [StudyDesign, number])[1];
        await playStudy({
          launch,
          studyId: study.study_id,
          agent,
          // Not the study id: it is random, and the seed alone must fix every choice.
          seed: `${seed}:${i}`,
          trialsPerSession: Math.ceil(study.trials_per_player / sessions),
          onTrial: () => options.onProgress?.(++done, total),
        });
      }
    }),
  );
  const played = performance.now();

  const store = new Store(dbPath);
  try {
    const catalog = loadCatalog();
    const published = importPublished(store, catalog, options.publishedCounts);
    const deps = { store, catalog };
    const report = reportData(deps, {
      framings: [...(designs[0] as [StudyDesign, number])[0].framings],
      bootstrap: options.bootstrap,
      seed,
      title: published.imported
        ? "same-game demo: reference agents beside published models"
        : "same-game demo: reference agents",
      database: dbPath,
    });
    const reportPath = resolve(options.out ?? join(dbPath, "..", "report.html"));
    writeFileSync(reportPath, await renderReportHtml(report));
    return {
      dbPath,
      reportPath,
      studies,
      published,
      report,
      timings: {
        play_seconds: (played - started) / 1000,
        analysis_seconds: (performance.now() - played) / 1000,
      },
    };
  } finally {
    store.close();
  }
}

function freshDatabasePath(requested: string | undefined): string {
  if (requested === undefined) return join(mkdtempSync(join(tmpdir(), "same-game-demo-")), "demo.db");
  if (isPostgresUrl(requested)) {
    throw new UsageError(
      `The demo writes a fresh SQLite record beside its report; pass a file path, not ${redactUrl(requested)}.`,
    );
  }
  const path = resolve(requested);
  if (existsSync(path) && statSync(path).size > 0) {
    throw new UsageError(`The demo writes a fresh record, but ${path} already exists; pass a new --db path.`);
  }
  return path;
}

/** Registers the designs over MCP, as any host would, through one setup session. */
async function registerStudies(launch: ServerLaunch, designs: readonly StudyDesign[]): Promise<DemoStudy[]> {
  const client = await connectAgent(launch, "demo-setup", "studies");
  try {
    const studies: DemoStudy[] = [];
    for (const design of designs) {
      const registered = await callTool(client, "register_study", { ...design });
      studies.push({
        study_id: registered.study_id as string,
        name: registered.name as string,
        trials_per_player: registered.trials_per_player as number,
      });
    }
    return studies;
  } finally {
    await client.close();
  }
}

function importPublished(
  store: Store,
  catalog: Catalog,
  requested: string | null | undefined,
): DemoResult["published"] {
  const path = requested === undefined ? PUBLISHED_COUNTS : requested;
  if (path === null) return { path: "", imported: false, reason: "skipped by request" };
  if (!existsSync(path)) return { path, imported: false, reason: "file not found" };
  const rows = parseCountsCsv(readFileSync(path, "utf8"), path, catalog);
  store.importCounts(PUBLISHED_REFERENCE, rows, store.nowIso());
  return { path, imported: true };
}
