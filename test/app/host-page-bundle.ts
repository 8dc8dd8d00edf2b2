import { join } from "node:path";
import { build, type Rolldown } from "vite";

const ROOT = join(import.meta.dirname, "..", "..");

/** The scripted host page: host-page.ts bundled with the ext-apps AppBridge into one inline script. */
export async function hostPageHtml(): Promise<string> {
  const output = await build({
    configFile: false,
    root: ROOT,
    logLevel: "warn",
    build: {
      write: false,
      minify: false,
      target: "es2022",
      lib: { entry: join(ROOT, "test", "app", "host", "host-page.ts"), formats: ["iife"], name: "testHost" },
    },
  });
  const results = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const chunk = results.flatMap((r) => r.output).find((c) => c.type === "chunk");
  if (chunk?.type !== "chunk") throw new Error("the host page bundle has no script");
  const script = chunk.code.replaceAll("</script", "<\\/script");
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>test host</title></head><body style="margin:0"><script>${script}</script></body></html>`;
}
