/** `ctxbench/importers`: foreign agent logs to canonical transcripts (README "Real transcripts"). */
export { importTranscript, detectFormat, importers, importerNames } from '../transcript/importers/index.js';
export { importClaudeSidechains } from '../transcript/claude-sidechains.js';
