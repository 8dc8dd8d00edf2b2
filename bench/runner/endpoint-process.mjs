// The scripted endpoint in its own process, as a real model server would be: prints its origin, then
// answers until stdin closes.
import { startScriptedEndpoint } from "../../dist/scripted-models/scripted-endpoint.js";

const endpoint = await startScriptedEndpoint({ delayMs: Number(process.argv[2] ?? 200) });
process.stdout.write(`${endpoint.origin}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await endpoint.close();
  process.exit(0);
});
