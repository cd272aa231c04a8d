import type { MessageEvent } from '../../transcript/types.js';
import { findPathsInText, readPathArgs, readShellCommand } from '../message-text.js';
import { readShellWrites } from '../shell-writes.js';
import { unescapeForTokens } from './specifics.js';

/**
 * The files a session names, each as written and by its last part: a path in any text, a tool
 * call's path argument, a file a shell command wrote (`cat <<EOF > repro.py`). A bare name such as
 * `repro.py` reads like a qualified name (`os.path`) by its shape; the session says it is a file.
 */
export function sessionFileNames(messages: readonly MessageEvent[]): ReadonlySet<string> {
  const names = new Set<string>();
  const add = (path: string): void => {
    const clean = path.replace(/^\.\//, '');
    names.add(clean);
    const last = clean.split('/').pop();
    if (last !== undefined && last !== '') names.add(last);
  };
  for (const message of messages) {
    for (const path of findPathsInText(unescapeForTokens(message.text))) add(path);
    for (const call of message.toolCalls ?? []) {
      for (const path of readPathArgs(call)) add(path);
      const command = readShellCommand(call);
      if (command !== undefined) for (const write of readShellWrites(command)) add(write.path);
    }
  }
  return names;
}
