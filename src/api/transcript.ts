/**
 * `ctxbench/transcript`: the canonical transcript (DESIGN.md §2): its event types, reading and
 * writing JSONL, synthetic sessions, and probe generation and grading.
 */
export type * from '../transcript/types.js';
export { readTranscript } from '../transcript/read.js';
export { serializeTranscript, writeTranscript } from '../transcript/write.js';
export { generateSession } from '../transcript/synthetic/generate.js';
export { loadTranscript } from '../scenario/load-transcript.js';
export { generateProbes } from '../probes/generate.js';
export { loadProbeFile } from '../probes/load.js';
export { gradeAnswer } from '../probes/grade.js';
