// Types of fetch-node-binaries.mjs, for the test that runs the built CLI under the releases it fetches.
export declare const NODE_BINARIES: string;
export declare const MINIMUM_NODE_RELEASE: string;
export declare const OLDER_NODE_RELEASE: string;
export declare const OTHER_ABI_NODE_RELEASE: string;
export declare function nodeBinary(version: string): string;
