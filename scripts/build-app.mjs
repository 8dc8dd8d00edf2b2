// Builds the MCP App dashboard (src/app/) into one self-contained HTML file, dist/app/dashboard.html:
// vite bundles the view with vega, vega-lite and the ext-apps App class into one script, which is then
// inlined with the page, so the view loads nothing at all (its declared CSP is empty).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outFile = join(root, "dist", "app", "dashboard.html");

const output = await build({
  configFile: false,
  root,
  logLevel: "warn",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    write: false,
    target: "es2022",
    minify: true,
    sourcemap: false,
    lib: {
      entry: join(root, "src", "app", "main.ts"),
      formats: ["iife"],
      name: "sameGameDashboard",
      fileName: () => "dashboard.js",
    },
  },
});

const outputs = Array.isArray(output) ? output : [output];
const chunks = outputs.flatMap((o) => ("output" in o ? o.output : [])).filter((c) => c.type === "chunk");
if (chunks.length !== 1) throw new Error(`expected one script chunk, got ${chunks.length}`);
// "</script" inside the code would end the inline script early; "<\/script" means the same in JS strings.
const script = chunks[0].code.replaceAll("</script", "<\\/script");
const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>same-game dashboard</title>
</head>
<body>
<script>${script}</script>
</body>
</html>
`;
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, html);
process.stderr.write(`dashboard: ${outFile} (${(html.length / 1024).toFixed(0)} KiB)\n`);
