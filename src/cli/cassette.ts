import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { writeFileAtomic } from '../report/write.js';
import type { RunOptions } from '../run/run-suite.js';
import type { ProviderName } from '../contracts/provider.js';
import { parseCassette, startRecording, startReplay } from '../providers/cassette.js';
import { createLiveSleep } from '../providers/live-sleep.js';
import { InputError, UsageError } from '../errors.js';
import { displayPath } from '../paths.js';

export interface CassetteFlags {
  record?: string;
  replay?: string;
}

/** What `--record` / `--replay` add to a live run, and how to end them once it is over. */
export interface CassetteSession {
  /** Run options: the retry sleep (so the units run in this thread), and for replays the URL and a key. */
  runOptions: Pick<RunOptions, 'retrySleep' | 'baseUrl' | 'env'>;
  /** After the run: a recording is written (`ok`) or dropped; a replay's interceptors removed. */
  close(ok: boolean): Promise<void>;
}

/** Variables whose values are scrubbed from a recording wherever they appear. */
const SECRET_VARIABLES = ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID'];
const KEY_VARIABLE: Record<ProviderName, string> = { openai: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY' };
/** What a replay passes as its key: the cassette answers, the key is never checked. */
const REPLAY_KEY = 'ctxbench-replay-key';

/**
 * Opens the recording or the replay that the flags ask for, if any. Both need a live provider; the
 * replay must be of the same provider, and talks to the recorded base URL unless `--base-url`.
 */
export async function openCassette(
  flags: CassetteFlags,
  provider: ProviderName | undefined,
  baseUrl: string | undefined,
): Promise<CassetteSession | undefined> {
  if (flags.record === undefined && flags.replay === undefined) return undefined;
  if (flags.record !== undefined && flags.replay !== undefined) throw new UsageError('--record and --replay cannot be used together');
  const flag = flags.record !== undefined ? '--record' : '--replay';
  if (provider === undefined) throw new UsageError(`${flag} needs a live provider (--provider gemini or openai)`);
  if (flags.record !== undefined) return record(resolve(flags.record), provider, baseUrl ?? (provider === 'openai' ? process.env.OPENAI_BASE_URL : undefined));
  return replay(resolve(flags.replay as string), provider, baseUrl);
}

function record(file: string, provider: ProviderName, baseUrl: string | undefined): CassetteSession {
  const secrets = SECRET_VARIABLES.map((name) => process.env[name]).filter((value): value is string => value !== undefined && value !== '');
  const recording = startRecording({ provider, ...(baseUrl !== undefined ? { baseUrl } : {}), secrets }, createLiveSleep());
  return {
    runOptions: { retrySleep: recording.sleep },
    async close(ok) {
      const cassette = recording.stop();
      if (!ok) return;
      // Scrubbed of the run's own keys above, and of every other secret-shaped string here.
      await writeFileAtomic(file, `${JSON.stringify(cassette, null, 2)}\n`, { redact: true });
    },
  };
}

async function replay(file: string, provider: ProviderName, baseUrl: string | undefined): Promise<CassetteSession> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new InputError({ file: displayPath(file) }, `cannot read the cassette (${error.code ?? error.message})`);
  });
  const cassette = parseCassette(text, displayPath(file));
  if (cassette.provider !== provider) {
    throw new UsageError(`${displayPath(file)} was recorded with --provider ${cassette.provider}, not ${provider}`);
  }
  const url = baseUrl ?? cassette.baseUrl;
  const key = KEY_VARIABLE[provider];
  const session = startReplay(cassette, displayPath(file));
  return {
    runOptions: {
      retrySleep: session.sleep,
      env: { ...process.env, [key]: process.env[key] ?? REPLAY_KEY },
      ...(url !== undefined ? { baseUrl: url } : {}),
    },
    async close() {
      session.stop();
    },
  };
}
