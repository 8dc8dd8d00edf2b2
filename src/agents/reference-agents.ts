import type { ReferenceAgent } from "./agent.js";
import { payoffReader } from "./payoff-reader.js";
import { storySwayed } from "./story-swayed.js";
import { uniformAgent } from "./uniform.js";

/** The three calibration instruments, in the order the demo reports them. */
export const REFERENCE_AGENTS: readonly ReferenceAgent[] = [payoffReader, storySwayed, uniformAgent];
