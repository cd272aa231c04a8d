import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';
import { closeTestMemos, openTestMemos } from './helpers/test-memos.js';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

// Nothing in a test may reach the network, read an API key, or touch the user's home.
nock.disableNetConnect();
delete process.env.GEMINI_API_KEY;
delete process.env.GOOGLE_API_KEY;
delete process.env.OPENAI_API_KEY;
process.env.HOME = mkdtempSync(join(tmpdir(), 'ctxbench-home-'));

beforeAll(openTestMemos);
afterAll(closeTestMemos);
