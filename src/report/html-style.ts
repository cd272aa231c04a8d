/**
 * The report's stylesheet: system fonts only (nothing to fetch), readable at 1280–1440 px wide,
 * two charts per row on a laptop and one on a narrow window, tables that scroll sideways rather
 * than squeeze.
 */
export const STYLE = `
:root { --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --bg: #ffffff; --panel: #f9fafb;
  --bad: #b91c1c; --bad-bg: #fee2e2; --good: #047857; --good-bg: #d1fae5; --warn: #92400e; --warn-bg: #fef3c7; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.45;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header.page, main, footer { max-width: 1320px; margin: 0 auto; padding: 0 24px; }
header.page { padding-top: 12px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 4px; }
h3 { font-size: 15px; margin: 22px 0 8px; }
dl.meta { display: flex; flex-wrap: wrap; gap: 2px 22px; margin: 0 0 6px; font-size: 13px; }
dl.meta div { display: flex; gap: 6px; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; font-weight: 600; }
a { color: #1d4ed8; }
section.scenario, section.overview { padding: 22px 0 12px; border-bottom: 1px solid var(--line); }
table.overview-table { font-size: 12px; table-layout: fixed; }
table.overview-table thead th { white-space: normal; vertical-align: bottom; text-align: right; line-height: 1.15; font-size: 10px; overflow-wrap: normal; word-break: keep-all; hyphens: manual; }
table.overview-table thead th:first-child, table.overview-table tbody th { text-align: left; width: 150px; }
table.overview-table th, table.overview-table td { padding: 3px 3px; }
table.overview-table tbody th { font-weight: 500; overflow-wrap: break-word; }
table.overview-table td { text-align: right; font-size: 11px; line-height: 1.25; overflow: hidden; }
figure.overview-chart { margin: 12px 0 14px; max-width: 900px; }
td.crash-cell { color: var(--bad); background: #fff5f5; }
.scenario-meta { color: var(--muted); margin: 0 0 10px; }
.findings { margin: 0 0 12px; padding: 8px 12px 8px 28px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
.findings li { margin: 2px 0; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
thead th { background: var(--panel); font-weight: 600; white-space: nowrap; position: relative; }
td.num, table.summary thead th { text-align: right; }
table.summary { font-size: 13px; }
table.summary th, table.summary td { padding: 5px 6px; }
table.summary thead th { white-space: nowrap; vertical-align: bottom; line-height: 1.2; }
table.summary thead th:first-child, table.summary thead th.crash-col { text-align: left; }
table.summary td, table.summary tbody th { white-space: nowrap; }
table.summary td.crash-col { white-space: normal; min-width: 240px; max-width: 420px; overflow-wrap: break-word; font-size: 12px; }
table.summary thead th:first-child, table.summary tbody th, table.decision-table .sticky { position: sticky; left: 0; z-index: 1; background: var(--bg); box-shadow: inset -1px 0 0 var(--line); }
table.summary thead th:first-child, table.decision-table thead .sticky { background: var(--panel); }
section.decision { padding: 14px 0 10px; border-bottom: 1px solid var(--line); }
.verdict-line { margin: 2px 0 8px; font-size: 15px; }
table.decision-table { font-size: 13px; }
table.decision-table th, table.decision-table td { padding: 4px 8px; white-space: nowrap; }
table.decision-table td.reason, table.decision-table th.reason { white-space: normal; min-width: 260px; overflow-wrap: break-word; color: #374151; }
table.decision-table tr.recommended > * { background: var(--good-bg); font-weight: 600; }
table.decision-table tr.excluded td:not(.reason):not(:nth-child(3)), table.decision-table tr.excluded th { color: var(--muted); }
.badge.ok { background: #dbeafe; color: #1e40af; }
.badge.dim { background: #f3f4f6; color: var(--muted); }
nav.highlight { display: flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; padding: 10px 0; font-size: 12px; }
button.chip { font: inherit; font-size: 12px; border: 1px solid var(--line); border-radius: 12px; padding: 1px 9px 1px 7px; background: var(--bg); color: var(--muted); cursor: pointer; }
button.chip[aria-pressed="true"] { border-color: #374151; color: var(--fg); font-weight: 600; background: var(--panel); }
button.chip .swatch { margin-right: 4px; }
ul.crash-list { margin: 4px 0; padding-left: 20px; }
ul.crash-list li { margin: 3px 0; }
p.drill select { font: inherit; max-width: 600px; }
tbody th { font-weight: 600; }
th.sort-header { cursor: pointer; user-select: none; }
th.sort-header:hover { background: #eef2ff; }
th[aria-sort="ascending"]::after { content: " ▲"; font-size: 10px; }
th[aria-sort="descending"]::after { content: " ▼"; font-size: 10px; }
td.best { color: var(--good); font-weight: 700; background: var(--good-bg); }
.best-key { color: var(--good); font-weight: 700; }
tr.crashed { background: #fff5f5; }
tr.crashed > th:first-child { box-shadow: inset 3px 0 0 var(--bad); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: baseline; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 12px; background: #e5e7eb; white-space: nowrap; }
.badge.bad { background: var(--bad-bg); color: var(--bad); }
.badge.good { background: var(--good-bg); color: var(--good); }
.badge.warn { background: var(--warn-bg); color: var(--warn); }
.banner.warn { background: var(--warn-bg); color: var(--warn); padding: 0.5em 0.8em; border-radius: 4px; font-weight: 600; }
.badge.action-compact, .badge.action-summary, .badge.action-anchor { background: #dbeafe; color: #1e40af; }
.badge.action-drop, .badge.action-evict, .badge.action-truncate { background: #ede9fe; color: #5b21b6; }
.dim { color: var(--muted); }
.note { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 16px; margin-top: 16px; }
figure.chart { margin: 0; padding: 10px 12px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); min-width: 0; }
figure.chart figcaption { margin-bottom: 6px; }
figure.chart figcaption strong { display: block; font-size: 14px; }
figure.chart figcaption span { color: var(--muted); font-size: 12px; }
.canvas-box { position: relative; height: 340px; }
.no-data { height: 340px; display: flex; align-items: center; justify-content: center; color: var(--muted);
  background: var(--panel); border-radius: 4px; margin: 0; }
details { margin: 6px 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
details > summary { cursor: pointer; }
details[open] > summary { margin-bottom: 6px; }
div.timeline.empty { margin: 6px 0; padding: 7px 11px; border: 1px dashed var(--line); border-radius: 6px; }
table.events { table-layout: fixed; }
table.events th:nth-child(1), table.events th:nth-child(2) { width: 56px; }
table.events th:nth-child(3) { width: 120px; }
table.events th:nth-child(4) { width: 190px; }
table.events th:nth-child(6) { width: 110px; }
table.events td.text, table.probe-table td.text { overflow-wrap: anywhere; }
table.probe-table tbody { border-top: 2px solid #d1d5db; }
table.probe-table { table-layout: fixed; }
table.probe-table th:nth-child(1) { width: 150px; }
table.probe-table th:nth-child(2) { width: 21%; }
table.probe-table th:nth-child(3) { width: 13%; }
table.probe-table th:nth-child(4) { width: 140px; }
table.probe-table th:nth-child(5) { width: 50px; }
table.probe-table th:nth-child(6) { width: 112px; }
table.probe-table td[rowspan] { background: var(--panel); overflow-wrap: anywhere; }
table.probe-table tbody th { font-weight: 500; overflow-wrap: anywhere; }
table.probe-table td.answer { color: #374151; font-size: 13px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
footer { color: var(--muted); font-size: 12px; padding-top: 16px; padding-bottom: 24px; }
@media (max-width: 700px) { .charts { grid-template-columns: 1fr; } }
`;
