import { Help, type Command, type Option } from 'commander';

/**
 * Help that prints a flag's default only when it tells the reader something: not an empty one
 * (`[]`, `""`, `false`), not a second one after a description that already names it ("mock
 * (default), gemini or openai", "default: the machine's cores"), and a list as it is typed
 * (`json,csv`), a text without quotes. Set on the program before the commands are added: they
 * inherit it.
 */
export function configureHelp(program: Command): Command {
  return program.configureHelp({
    optionDescription(this: Help, option: Option): string {
      const shown = shownDefault(option);
      const value: unknown = option.defaultValue;
      const view: Option = Object.assign(Object.create(Object.getPrototypeOf(option) as object) as Option, option, {
        defaultValue: shown === undefined ? undefined : value,
        defaultValueDescription: shown,
      });
      return Help.prototype.optionDescription.call(this, view);
    },
  });
}

/** The default as help shows it, or undefined when help should not show one. */
function shownDefault(option: Option): string | undefined {
  const value: unknown = option.defaultValue;
  if (value === undefined) return undefined;
  if (option.defaultValueDescription !== undefined && option.defaultValueDescription !== '') return option.defaultValueDescription;
  if (/\bdefault\b/i.test(option.description ?? '')) return undefined;
  if (value === false || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
