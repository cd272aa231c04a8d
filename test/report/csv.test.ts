import { describe, expect, it } from 'vitest';
import { renderCsv } from '../../src/report/csv.js';
import { buildRunResult } from './run-result.js';

const CONTRACT_HEADER =
  'scenario,strategy,steps,steps_completed,crashed,crash_kind,crash_step,prompt_tokens,completion_tokens,' +
  'overhead_tokens,total_tokens,peak_context_tokens,saving_vs_full,rate_limit_hits,wait_ms,compactions,' +
  'retention,answer_recall,probes';

function file(name: string): string {
  const found = renderCsv(buildRunResult()).find((f) => f.file === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found.contents;
}

function lines(name: string): string[] {
  return file(name).trimEnd().split('\n');
}

describe('summary.csv', () => {
  it('starts with exactly the contract columns, then the extras', () => {
    const header = lines('summary.csv')[0] ?? '';
    expect(header.startsWith(`${CONTRACT_HEADER},`)).toBe(true);
    expect(header).toBe(
      `${CONTRACT_HEADER},mean_context_tokens,cached_prefix_share,overhead_calls,unanswered,logs,crashed_logs,retrieval_tokens,cached_input_tokens,cache_write_tokens,cost_usd,cost_vs_full,invalid_asks,` +
        'saving_ci_low,saving_ci_high,cost_vs_full_ci_low,cost_vs_full_ci_high,answer_recall_ci_low,answer_recall_ci_high,' +
        'needed_facts,needed_recall,needed_recoverable,needed_lost,needed_recall_ci_low,needed_recall_ci_high,answer_recall_needed',
    );
  });

  it('writes booleans as true/false, unmeasured as empty cells, fractions with at most 4 decimals', () => {
    const [, full, rolling] = lines('summary.csv');
    expect(full).toBe('long-session,full,3,2,true,overflow,2,9100,240,0,9340,9300,0,0,0,0,,,,6133.3333,0.5714,0,,,,0,5200,0,,,,,,,,,,,,,,,,');
    expect(rolling).toBe(
      'long-session,rolling-window,3,3,false,,,9100,360,700,10160,3100,0.3319,1,1500,1,0.6667,0.5,3,3033.3333,0.4725,1,0,,,0,4300,0,,,,,,,,,,,,,,,,',
    );
  });
});

describe('steps.csv and events.csv', () => {
  it('has one step row per scenario × strategy × step', () => {
    const rows = lines('steps.csv');
    expect(rows[0]).toBe(
      'scenario,strategy,step,message_id,at_ms,status,failure,prompt_tokens,completion_tokens,context_tokens,' +
        'context_messages,cached_prefix_tokens,overhead_tokens,retries,rate_limit_hits,wait_ms,retrieval_tokens,hidden_tokens,reasoning_tokens,cache_write_tokens,cost_usd',
    );
    expect(rows).toHaveLength(1 + 6);
    expect(rows[3]).toBe('long-session,full,2,a2,9200,crashed,overflow,0,0,9300,6,0,0,0,0,0,0,,,0,');
  });

  it('has one row per timeline event, quoting text and neutralising formulas', () => {
    const rows = readRecords(file('events.csv'));
    expect(rows.map((r) => `${r.strategy}:${r.type}:${r.kind}`)).toEqual([
      'full:failure:overflow',
      'full:crash:overflow',
      'rolling-window:failure:rate-limit',
      'rolling-window:wait:wait',
      'rolling-window:call:summary',
      'rolling-window:action:compact',
      'rolling-window:recorded-compaction:recorded-compaction',
    ]);
    expect(rows[2]).toMatchObject({ reason: 'Resource exhausted', detail: 'attempt 0', ms: '1500' });
    expect(rows[4]).toMatchObject({ input_tokens: '600', output_tokens: '100', detail: 'ok', tokens_before: '' });
    expect(rows[5]).toMatchObject({ mode: 'standard', tokens_before: '6200', tokens_after: '3100', detail: `'=HYPERLINK("x")` });
    expect(rows[6]).toMatchObject({ detail: 'c1', tokens_before: '9000', tokens_after: '3000' });
  });
});

/** Enough of RFC 4180 for these files: quoted fields with doubled quotes, no newlines inside. */
function readRecords(csv: string): Record<string, string>[] {
  const [header = [], ...rows] = csv.trimEnd().split('\n').map(splitFields);
  return rows.map((fields) => Object.fromEntries(header.map((name, i) => [name, fields[i] ?? ''])));
}

function splitFields(line: string): string[] {
  const fields: string[] = [];
  for (let i = 0; i <= line.length;) {
    if (line[i] === '"') {
      let value = '';
      for (i += 1; i < line.length; i += 1) {
        if (line[i] === '"' && line[i + 1] === '"') value += line[++i];
        else if (line[i] === '"') break;
        else value += line[i];
      }
      fields.push(value);
      i += 2;
    } else {
      const end = !line.includes(',', i) ? line.length : line.indexOf(',', i);
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

describe('probes.csv', () => {
  it('has one row per scenario × strategy × probe answer, text quoted, booleans as true/false', () => {
    const rows = readRecords(file('probes.csv'));
    expect(lines('probes.csv')[0]).toBe(
      'scenario,strategy,probe_id,kind,asked_at,step,question,expected,answer,correct,retrieved,correct_with_retrieval,retrieval_tokens,judge_total,outcome,valid,needed_later',
    );
    expect(rows).toEqual([
      {
        scenario: 'long-session',
        strategy: 'rolling-window',
        probe_id: 'p-port',
        kind: 'recall',
        asked_at: 'end',
        step: '2',
        question: 'Question of p-port?',
        expected: 'expected p-port',
        answer: 'The port is 8080, "quoted", with a, comma',
        correct: 'true',
        retrieved: 'false',
        correct_with_retrieval: 'false',
        retrieval_tokens: '0',
        judge_total: '',
        outcome: '',
        valid: 'true',
        needed_later: '',
      },
      expect.objectContaining({
        probe_id: 'p-file',
        kind: 'artifact',
        correct: 'false',
        retrieved: 'true',
        correct_with_retrieval: 'true',
        retrieval_tokens: '250',
      }),
    ]);
  });

  it('is only a header when nothing was probed', () => {
    const result = buildRunResult();
    result.units = result.units.map(({ probes: _probes, ...unit }) => unit);
    const probes = renderCsv(result).find((f) => f.file === 'probes.csv');
    expect(probes?.contents.trimEnd().split('\n')).toHaveLength(1);
  });
});
