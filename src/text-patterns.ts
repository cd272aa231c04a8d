// Patterns of per-token and per-line code, shared by the simulated reader (src/simulator/) and the
// probes' line index and question hints (src/probes/), so that both read a text alike. Constants:
// a regular expression literal in a function body is a new object each time it is
// evaluated (a cold run reads tens of thousands of tokens). None is global or sticky, so none
// keeps a position between uses.
/** A token joined of parts (`snake_case`, `a.b`, `path/to`, `kebab-case`), and what splits it into them. */
export const COMPOUND = /[_./-]/;
export const COMPOUND_SEPARATORS = /[_./-]+/;
export const DIGIT = /\d/;
/** Where a text breaks into lines: a newline, or an escaped one (tool output recorded as a JSON string, Codex). */
export const LINE_BREAK = /\r?\n|\\n/;
/** A line worth reading holds a letter or a digit. */
export const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
