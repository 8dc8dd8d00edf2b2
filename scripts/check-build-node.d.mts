// Types of check-build-node.mjs, for the test that keeps its floors equal to vite's engines.
export declare const BUILD_NODE_FLOORS: readonly { major: number; from: string; through: number }[];
export declare function buildNodeProblem(version: string): string | null;
