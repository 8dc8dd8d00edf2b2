// Loaded with `node --import` into a measured CLI process: reports the process's peak resident memory on
// stderr as its last line, so the scale benchmark can read it without a platform `time` command.
import { writeSync } from "node:fs";

process.on("exit", () => {
  writeSync(2, `\nscale-bench maxRSS ${process.resourceUsage().maxRSS}\n`);
});
