// Writes dist/build-id.json: a digest of every file the build wrote. Results the analysis cache keeps in a
// record are keyed by it, so a rebuilt server (a fix pulled from git between two releases, the version
// unchanged) never answers with what an older build computed.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const dist = process.argv[2] ?? join(fileURLToPath(new URL("..", import.meta.url)), "dist");
const out = join(dist, "build-id.json");
const files = readdirSync(dist, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
  .filter((file) => file !== out)
  .map((file) => relative(dist, file).split("\\").join("/"))
  .sort();
const digest = createHash("sha256");
for (const file of files) {
  // Name and content, each length-prefixed, so no two different trees give the same stream.
  const content = readFileSync(join(dist, file));
  digest.update(`${file.length}:${file}${content.length}:`).update(content);
}
const build = digest.digest("hex").slice(0, 16);
writeFileSync(out, `${JSON.stringify({ build, files: files.length })}\n`);
process.stderr.write(`build id: ${build} (${files.length} files)\n`);
