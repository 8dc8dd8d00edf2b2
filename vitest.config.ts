import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn server processes; two cores are all a CI machine has.
    maxWorkers: 2,
    benchmark: { include: ["bench/**/*.bench.ts"] },
  },
});
