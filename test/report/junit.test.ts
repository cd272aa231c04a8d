import { describe, expect, it } from 'vitest';
import { escapeXml, escapeXmlText, renderJunit } from '../../src/report/junit.js';
import { buildHostileResult } from './hostile-result.js';
import { buildRunResult } from './run-result.js';

function junit(result = buildRunResult()): string {
  const [file, ...rest] = renderJunit(result);
  expect(rest).toEqual([]);
  expect(file?.file).toBe('junit.xml');
  return file?.contents ?? '';
}

describe('junit.xml', () => {
  // Times are virtual seconds from the result and paths are relative: nothing to normalise.
  it('matches the snapshot of the hand-built run', () => {
    expect(junit()).toMatchSnapshot();
  });

  it('has one test case per scenario × strategy, classname = scenario, name = strategy', () => {
    const cases = [...junit().matchAll(/<testcase classname="([^"]*)" name="([^"]*)" time="([^"]*)">/g)].map((m) => m.slice(1));
    expect(cases).toEqual([
      ['long-session', 'full', '9.200'],
      ['long-session', 'rolling-window', '9.200'],
    ]);
    expect(junit()).toMatch(/<testsuites name="ctxbench" tests="2" failures="1" errors="0" time="18.400">/);
  });

  it('turns a crash into a failure naming its kind, step and message', () => {
    const failure = /<failure type="([^"]*)" message="([^"]*)">([^<]*)<\/failure>/.exec(junit());
    expect(failure?.[1]).toBe('overflow');
    expect(failure?.[2]).toBe('full crashed (overflow) at step 2 of 3: The input token count (9300) exceeds the maximum number of tokens allowed (8000)');
    expect(failure?.[3]).toContain('steps completed: 2/3');
  });

  it('is deterministic and escapes everything it did not write itself', () => {
    expect(junit()).toBe(junit());
    const xml = junit(buildHostileResult());
    expect(xml).not.toMatch(/<script|<img|<\/script/);
    // Every attribute value is quoted text without a raw quote or angle bracket inside.
    for (const tag of xml.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(/^<[?/]?[\w:]+(?:\s+[\w:-]+="[^"<>]*")*\s*[/?]?>$/);
  });
});

describe('XML escaping', () => {
  it('escapes markup, keeps line breaks in text and encodes them in attributes', () => {
    expect(escapeXmlText(`a<b>&"c"'\nd`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;\nd');
    expect(escapeXml('line\nnext\ttab')).toBe('line&#10;next&#9;tab');
  });

  it('replaces characters XML 1.0 cannot hold, such as ANSI escapes and lone surrogates', () => {
    expect(escapeXmlText('\x1b[31mred\x1b[0m \ud800 ok 😀')).toBe('\uFFFD[31mred\uFFFD[0m \uFFFD ok 😀');
  });
});
