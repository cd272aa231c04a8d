import type { MessageEvent, TaskEventSource, ToolCall } from '../types.js';

/** One item of an agent's plan as its plan tool recorded it. */
export interface PlanItem {
  title: string;
  status: string;
}

/** A plan tool: its tool name, the source it is recorded as, and how its arguments list the items. */
interface PlanTool {
  name: string;
  source: TaskEventSource;
  items(args: Record<string, unknown>): PlanItem[];
}

function listOf(value: unknown, titleKey: string): PlanItem[] {
  if (!Array.isArray(value)) return [];
  const items: PlanItem[] = [];
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null) continue;
    const title = (entry as Record<string, unknown>)[titleKey];
    const status = (entry as Record<string, unknown>).status;
    if (typeof title === 'string' && title.trim() !== '' && typeof status === 'string') items.push({ title: title.trim(), status });
  }
  return items;
}

/**
 * The plan tools agents record: Claude Code's `TodoWrite` ({todos: [{content, status}]}) and
 * Codex's `update_plan` ({plan: [{step, status}]}); both use pending / in_progress / completed.
 * Each call sends the whole list, so a status change is read against the previous call.
 */
const PLAN_TOOLS: readonly PlanTool[] = [
  { name: 'TodoWrite', source: 'todo-write', items: (args) => listOf(args.todos, 'content') },
  { name: 'update_plan', source: 'update-plan', items: (args) => listOf(args.plan, 'step') },
];

/** The plan-tool calls of an assistant message, with their tool. */
export function planCalls(message: MessageEvent): { call: ToolCall; tool: PlanTool }[] {
  const found: { call: ToolCall; tool: PlanTool }[] = [];
  for (const call of message.toolCalls ?? []) {
    const tool = PLAN_TOOLS.find((t) => t.name === call.name);
    if (tool !== undefined) found.push({ call, tool });
  }
  return found;
}
