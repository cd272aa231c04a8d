/** `ctxbench/reports`: the renderers of a run's result, writing them, and redaction of secrets. */
export { renderReports, reporterNames, type ReportFile, type Reporter } from '../report/index.js';
export { writeReportFiles, writeFileAtomic, type WriteOptions } from '../report/write.js';
export { redactText, redactValue, findSecrets, hasSecret, redactionMarker, type SecretSpan } from '../redact/index.js';
export { resultForWriting } from '../redact/result.js';
export type { LogSummary, RunResult, SummaryRow, UnitResult } from '../metrics/types.js';
export type { Recommendation, Candidate, Verdict, Objective, AggregateRule, RecommendationConstraints } from '../metrics/recommendation.js';
