import { z } from 'zod';
import type { Strategy } from './types.js';
import { applyToHistory, createHistory, type History } from './helpers/history.js';

const options = z.strictObject({});

/** Sends the whole history at every step: the baseline every saving is measured against. */
export const full: Strategy<z.infer<typeof options>, History> = {
  name: 'full',
  description: 'Sends the whole history at every step (the baseline every saving is measured against).',
  options,
  init: () => createHistory(),
  observe(event, state) {
    applyToHistory(state, event);
  },
  prepare: (state) => [...state.messages],
  // In a pipeline, the context the earlier stages prepared, as it is.
  transform: (context) => [...context],
};
