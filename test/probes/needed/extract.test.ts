import { describe, expect, it } from 'vitest';
import { extractNeededUses, DEFAULT_MIN_DISTANCE } from '../../../src/probes/needed/extract.js';
import type { MessageEvent, ToolCall, Transcript, TranscriptEvent } from '../../../src/transcript/types.js';

/** A transcript from its messages. */
function transcriptOf(events: TranscriptEvent[]): Transcript {
  return { header: { type: 'session', id: 's', dialect: 'anthropic' }, events, file: 'hand-made', skipped: [], unknown: {} };
}

let counter = 0;
const message = (role: MessageEvent['role'], text: string, toolCalls?: ToolCall[]): MessageEvent => ({
  type: 'message',
  id: `m${++counter}`,
  role,
  text,
  ...(toolCalls === undefined ? {} : { toolCalls }),
});
const call = (name: string, args: Record<string, unknown>): ToolCall => ({ id: `c${++counter}`, name, args });

/** `n` assistant steps that say nothing specific, each answered by a tool result. */
function filler(n: number): MessageEvent[] {
  return Array.from({ length: n }, () => [message('assistant', 'Looking further.', [call('Bash', { command: 'ls' })]), message('tool', 'nothing here')]).flat();
}

/** A session that shows `shown` in a tool result (seen from step 1), then runs a call with `args` at step 1 + `gap`. */
function sessionUsing(shown: string, gap: number, args: Record<string, unknown>, name = 'Bash'): Transcript {
  return transcriptOf([
    message('user', 'Fix the failing build.'),
    message('assistant', 'Reading the config.', [call('Read', { file_path: 'config.txt' })]),
    message('tool', shown),
    ...filler(gap),
    message('assistant', '', [call(name, args)]),
  ]);
}

describe('extractNeededUses', () => {
  it('counts a fact used ten steps after it was last seen, not nine', () => {
    expect(DEFAULT_MIN_DISTANCE).toBe(10);
    const ten = extractNeededUses(sessionUsing('flag: DEBUG_MODE=1', 10, { command: 'export DEBUG_MODE=0' }));
    expect(ten).toEqual([{ fact: 'DEBUG_MODE', kind: 'identifier', sourceIndex: 2, sourceStep: 1, useIndex: 23, useStep: 11 }]);
    expect(extractNeededUses(sessionUsing('flag: DEBUG_MODE=1', 9, { command: 'export DEBUG_MODE=0' }))).toEqual([]);
    expect(extractNeededUses(sessionUsing('flag: DEBUG_MODE=1', 9, { command: 'export DEBUG_MODE=0' }), { minDistance: 9 })).toHaveLength(1);
  });

  it('reads argument values, never the keys of a tool', () => {
    // `activeForm` and `output_mode` are the tools' words: shown in an earlier result, still no use.
    const session = sessionUsing(
      'the todo tool takes activeForm and output_mode',
      12,
      { todos: [{ content: 'Write tests', activeForm: 'Writing tests' }], output_mode: 'x' },
      'TodoWrite',
    );
    expect(extractNeededUses(session)).toEqual([]);
  });

  it('leaves out the values of a tool vocabulary (a todo status)', () => {
    const todo = (status: string): ToolCall => call('TodoWrite', { todos: [{ content: 'Write tests', status }] });
    const session = transcriptOf([
      message('user', 'Go.'),
      message('assistant', '', [todo('in_progress')]),
      message('tool', 'ok'),
      ...filler(12),
      message('assistant', '', [todo('completed')]),
      message('tool', 'ok'),
      ...filler(12),
      message('assistant', '', [todo('in_progress')]),
    ]);
    expect(extractNeededUses(session).map((u) => u.fact)).toEqual([]);
  });

  it('reads tokens after unescaping: `\\nDEBUG_MODE` is DEBUG_MODE', () => {
    const uses = extractNeededUses(sessionUsing('{"text": "line one\\nDEBUG_MODE=1"}', 12, { command: 'grep -n DEBUG_MODE src/app.py' }));
    expect(uses.map((u) => u.fact)).toEqual(['DEBUG_MODE']);
    const escaped = extractNeededUses(sessionUsing('DEBUG_MODE=1', 12, { command: 'printf "\\nDEBUG_MODE"' }));
    expect(escaped.map((u) => u.fact)).toEqual(['DEBUG_MODE']);
  });

  it("leaves out a command-line option's name (`-mavx2`, `-D_GNU_SOURCE`, `--max_count`), keeps a name a dash joins or a value after an option", () => {
    const seen = 'gcc -O2 -mavx2 -D_GNU_SOURCE -o build/agent agent.c; grep --max_count=3 retry_limit; cat foo-bar_baz.txt; pytest -k test_retry_limit';
    const used = extractNeededUses(
      sessionUsing(seen, 12, { command: 'cc -mavx2 -D_GNU_SOURCE x.c && grep --max_count=1 -e retry_limit; pytest -k test_retry_limit' }),
    );
    expect(used.map((u) => u.fact).sort()).toEqual(['retry_limit', 'test_retry_limit']);
  });

  it('leaves plain words out, in any language, and reads a CJK session as an English one', () => {
    const english = sessionUsing('The parser reads config_loader.py and sets retry_limit to 250ms', 12, {}, 'Noop');
    const chinese = sessionUsing('解析器读取config_loader.py并把retry_limit设为250ms', 12, {}, 'Noop');
    const useEnglish = transcriptOf([...english.events, message('assistant', 'The parser now sets retry_limit to 250ms in config_loader.py.')]);
    const useChinese = transcriptOf([...chinese.events, message('assistant', '解析器现在在config_loader.py里把retry_limit设为250ms。')]);
    const facts = (t: Transcript): string[] =>
      extractNeededUses(t)
        .map((u) => `${u.kind}:${u.fact}`)
        .sort();
    expect(facts(useEnglish)).toEqual(['identifier:config_loader.py', 'identifier:retry_limit', 'number:250ms']);
    expect(facts(useChinese)).toEqual(facts(useEnglish));
  });

  it('reads a phrase that runs into Chinese text as standing alone, as a space would end it', () => {
    // `go mod init的時候`: no space ends the phrase, the next Han letter does (specifics.ts `isNameChar`).
    const session = transcriptOf([
      message('user', '另外想確認一下這版本是在 go mod init的時候決定的嗎？'),
      ...filler(11),
      message('assistant', '版本是在執行 `go mod init` 時決定的。'),
    ]);
    expect(extractNeededUses(session).map((u) => `${u.kind}:${u.fact}`)).toEqual(['constraint:go mod init']);
    // A Latin letter running into it still makes it part of a longer name.
    const latin = transcriptOf([message('user', 'run go mod initx first'), ...filler(11), message('assistant', 'Running `go mod init` now.')]);
    expect(extractNeededUses(latin)).toEqual([]);
  });

  it('calls a specific the user stated a constraint', () => {
    const session = transcriptOf([
      message('user', 'Keep MAX_RETRIES at 3 and never touch legacy_api.'),
      ...filler(11),
      message('assistant', 'Leaving legacy_api alone as asked.'),
    ]);
    expect(extractNeededUses(session)).toEqual([expect.objectContaining({ fact: 'legacy_api', kind: 'constraint', sourceIndex: 0, sourceStep: 0 })]);
  });

  it('does not count a fact seen again, inside a longer one, within the distance', () => {
    const session = transcriptOf([
      message('user', 'Start.'),
      message('assistant', 'Opening it.', [call('Read', { file_path: 'conf/app_settings.py' })]),
      message('tool', 'app_settings loaded'),
      ...filler(11),
      message('tool', 'saw /srv/conf/app_settings.py'),
      message('assistant', 'Editing conf/app_settings.py now.'),
    ]);
    expect(extractNeededUses(session)).toEqual([]);
  });

  it('leaves out names and commands the agent wrote before the session showed them, keeps its paths', () => {
    const session = transcriptOf([
      message('user', 'Write the report.'),
      message('assistant', 'Writing it.', [call('Write', { file_path: 'out/report_v2.md', content: 'import numpy_helpers\nuse python3' })]),
      message('tool', 'File created'),
      ...filler(11),
      message('assistant', 'Done: out/report_v2.md uses numpy_helpers via python3.'),
    ]);
    expect(extractNeededUses(session).map((u) => `${u.kind}:${u.fact}`)).toEqual(['path:out/report_v2.md']);
  });

  it('never counts a plain word, even called or quoted alone', () => {
    const uses = extractNeededUses(sessionUsing('def cleanup(): print("done")', 12, { command: 'python -c "cleanup(); print(\'done\')"' }));
    expect(uses).toEqual([]);
  });

  it('reads the gap between two quoted strings as no literal', () => {
    const uses = extractNeededUses(sessionUsing('find . -name "*.sh" -o -name "*.py" -print', 12, { command: 'find src -name "*.ts" -o -name "*.js"' }));
    expect(uses.map((u) => u.fact)).toEqual([]);
  });

  it('takes the longest form the session showed: a name the agent qualified itself still uses the one the task named', () => {
    const session = transcriptOf([
      message('user', 'Add a refit_time_ attribute.'),
      ...filler(11),
      message('assistant', 'Setting self.refit_time_ after the refit.'),
    ]);
    expect(extractNeededUses(session)).toEqual([expect.objectContaining({ fact: 'refit_time_', kind: 'constraint', sourceIndex: 0 })]);
  });

  it('calls a bare name the session names as a file a path', () => {
    const session = transcriptOf([
      message('user', 'Reproduce it.'),
      message('assistant', '', [call('bash', { command: "cat <<'EOF' > repro_case.py\nprint(1)\nEOF" })]),
      message('tool', 'ok'),
      ...filler(11),
      message('assistant', '', [call('bash', { command: 'rm repro_case.py' })]),
    ]);
    expect(extractNeededUses(session).map((u) => `${u.kind}:${u.fact}`)).toEqual(['path:repro_case.py']);
  });

  it('finds a quoted phrase where a tool printed it unquoted: a line of a file grepped for later', () => {
    const line = '    if username is None or password is None:';
    const uses = extractNeededUses(
      sessionUsing(`40:${line}\n41:        return`, 12, { command: 'grep -n "if username is None or password is None" auth/backends.py' }),
    );
    expect(uses.map((u) => `${u.kind}:${u.fact}`)).toEqual(['quoted:if username is None or password is None']);
    expect(uses[0]).toMatchObject({ sourceIndex: 2, sourceStep: 1 });
  });

  it('does not count a phrase only the agent wrote before, unquoted, nor one that begins a longer run of words', () => {
    const agentOnly = transcriptOf([
      message('user', 'Fix the check.'),
      message('assistant', 'The guard if username is None or password is None goes first.', [call('Read', { file_path: 'auth/backends.py' })]),
      message('tool', 'class ModelBackend: pass'),
      ...filler(11),
      message('assistant', '', [call('bash', { command: 'grep -n "if username is None or password is None" auth/backends.py' })]),
    ]);
    expect(extractNeededUses(agentOnly).map((u) => `${u.kind}:${u.fact}`)).toEqual(['path:auth/backends.py']);
    // `# Main execution` is a comment an agent writes anew, not a use of `# Main execution function` in another script.
    const longer = extractNeededUses(sessionUsing('# Main execution function\nmain() {', 12, { command: 'grep -n "# Main execution" run.sh' }));
    expect(longer).toEqual([]);
    // With a specific inside, the phrase may stand inside a longer line (`rem_model_name == model_name` of an `if`).
    const inside = extractNeededUses(
      sessionUsing('if rem_app_label == app_label and rem_model_name == model_name:', 12, {
        command: 'grep -n "rem_model_name == model_name" autodetector.py',
      }),
    );
    expect(inside.map((u) => u.fact)).toContain('rem_model_name == model_name');
  });

  it('sees a vocabulary value though it is never a use: a polled shell id is in every step', () => {
    const poll = (): MessageEvent[] => [message('assistant', '', [call('BashOutput', { bash_id: 'd66418' })]), message('tool', '<status>running</status>')];
    const session = transcriptOf([
      message('user', 'Check the router.'),
      message('assistant', '', [call('Bash', { command: 'ssh router "docker ps -a"', run_in_background: true })]),
      message('tool', 'Command running in background with ID: d66418'),
      ...Array.from({ length: 12 }, poll).flat(),
      message('assistant', 'Taking too long.', [call('KillShell', { shell_id: 'd66418' })]),
    ]);
    expect(extractNeededUses(session)).toEqual([]);
    // The same id, polled last more than the distance before, is a use.
    const stale = transcriptOf([...session.events.slice(0, 5), ...filler(11), message('assistant', '', [call('KillShell', { shell_id: 'd66418' })])]);
    expect(extractNeededUses(stale).map((u) => u.fact)).toEqual(['d66418']);
  });
});
