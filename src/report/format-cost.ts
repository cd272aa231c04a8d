/**
 * Cost at a glance, for tables: `$0.0123` under a dollar (4 decimals: a step costs fractions of a
 * cent), `$12.34` above; `+12%` / `−30%` against `full` (positive = dearer). `null` = unpriced.
 */
export function formatUsd(usd: number | null): string | null {
  if (usd === null) return null;
  return Math.abs(usd) < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** The cost cell: dollars and, when compared with `full`, the signed change. */
export function formatCostCell(usd: number | null, vsFull: number | null): string | null {
  const dollars = formatUsd(usd);
  if (dollars === null) return null;
  if (vsFull === null) return dollars;
  const pct = Math.round(vsFull * 100);
  return `${dollars} ${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct)}%`;
}
