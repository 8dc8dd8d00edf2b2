import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";

// The runner's preamble wording lives in styles/*.json beside games/ and framings/, so a researcher can
// read and change it without touching code. It is shown to the model, so it names nothing being measured.

const StyleSchema = z.object({
  id: z.string().min(1),
  description: z.string(),
  /** The system message of every conversation. */
  system: z.string().min(1),
  /** Appended to the system message in text mode: how the reply should end. */
  text_reply: z.string().min(1),
  /** Appended to the system message in tools mode. */
  tools_reply: z.string().min(1),
});
export type RunnerStyle = z.infer<typeof StyleSchema>;

export function loadStyles(dir: string = join(packageRoot(), "styles")): RunnerStyle[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => StyleSchema.parse(JSON.parse(readFileSync(join(dir, name), "utf8"))));
}

/** The style named by `--style`, or a UsageError naming the valid ones. */
export function styleNamed(id: string): RunnerStyle {
  const styles = loadStyles();
  const style = styles.find((s) => s.id === id);
  if (!style) {
    throw new UsageError(`--style must be one of ${styles.map((s) => s.id).join(", ")}, got "${id}".`);
  }
  return style;
}

/** The system message for one seat in one mode. */
export function systemMessage(style: RunnerStyle, mode: "tools" | "text"): string {
  return `${style.system} ${mode === "tools" ? style.tools_reply : style.text_reply}`;
}
