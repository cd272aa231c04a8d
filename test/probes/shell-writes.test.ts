import { describe, expect, it } from 'vitest';
import { readShellWriteFacts, readShellWrites } from '../../src/probes/shell-writes.js';
import type { MessageEvent, ToolCall } from '../../src/transcript/types.js';

describe('readShellWrites', () => {
  it('reads a heredoc written to a file, with its body', () => {
    const command = "cat <<'EOF' > reproduce_issue.py\nfrom astropy.io.fits import Header\nHeader.fromstring(b'x')\nEOF\npython reproduce_issue.py";
    expect(readShellWrites(command)).toEqual([
      { path: 'reproduce_issue.py', verb: 'write', text: "from astropy.io.fits import Header\nHeader.fromstring(b'x')" },
    ]);
  });

  it('reads appends, tee and in-place edits, each file once at its last write', () => {
    expect(readShellWrites('echo "- fixed" >> NOTES.md && cat NOTES.md | tee -a logs/run.log')).toEqual([
      { path: 'NOTES.md', verb: 'append to' },
      { path: 'logs/run.log', verb: 'append to' },
    ]);
    expect(readShellWrites("sed -i 's/from .util import/from .util import decode_ascii,/' astropy/io/fits/card.py")).toEqual([
      { path: 'astropy/io/fits/card.py', verb: 'edit', text: 'from .util import decode_ascii,' },
    ]);
    expect(readShellWrites("sed -i '557i\\        if isinstance(image, bytes):\\n            image = decode_ascii(image)\\n' astropy/io/fits/card.py")).toEqual(
      [{ path: 'astropy/io/fits/card.py', verb: 'edit', text: '        if isinstance(image, bytes):\n            image = decode_ascii(image)\n' }],
    );
    expect(readShellWrites("perl -pi -e 's#old_name#new_name#g' src/app.rb")).toEqual([{ path: 'src/app.rb', verb: 'edit', text: 'new_name' }]);
  });

  it('leaves out what is no artifact: stderr, /dev/null, temporary files, comparisons, reads', () => {
    expect(readShellWrites('python -m pytest tests/ 2>&1 > /dev/null')).toEqual([]);
    expect(readShellWrites('grep -n "x => y" src/a.ts 2> errors.txt')).toEqual([]);
    expect(readShellWrites('cat > /tmp/scratch.py <<EOF\nprint(1)\nEOF')).toEqual([]);
    expect(readShellWrites("sed -n '330,360p' astropy/io/fits/header.py")).toEqual([]);
    expect(readShellWrites('cat src/main.py | head -20')).toEqual([]);
  });
});

describe('readShellWriteFacts', () => {
  const message: MessageEvent = { type: 'message', id: 'a1', role: 'assistant', text: 'I will add a script that reproduces the bytes failure.' };
  const call: ToolCall = { id: 'c1', name: 'bash', args: { command: "cat <<'EOF' > reproduce_issue.py\nfrom astropy.io.fits import Header\nEOF" } };

  it('asks which file the command wrote, and what it holds as its latest state', () => {
    const facts = readShellWriteFacts(message, 3, call);
    expect(facts.map((f) => [f.kind, f.answer, f.question, f.latest])).toEqual([
      ['artifact', 'reproduce_issue.py', 'Which file did the agent write with `bash`?', undefined],
      ['artifact', 'from astropy.io.fits import Header', 'What did the agent change `reproduce_issue.py` to with `bash`?', true],
    ]);
    for (const fact of facts) expect(fact.question).not.toContain(fact.answer);
  });

  it('reads nothing from a tool that runs no shell', () => {
    expect(readShellWriteFacts(message, 3, { ...call, name: 'web_search' })).toEqual([]);
  });
});
