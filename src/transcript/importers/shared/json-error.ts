/** A JSON syntax error, as a line and a short problem for InputError. */
export interface JsonErrorPlace {
  line: number;
  problem: string;
}

/**
 * Where a JSON document that JSON.parse rejected first goes wrong. V8 names a position only for
 * some errors (an unexpected token comes with a quote of the text instead), so the place is found
 * by a small syntax scan of our own.
 */
export function placeJsonError(text: string, error: Error): JsonErrorPlace {
  const offset = findJsonErrorOffset(text);
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line += 1;
  return { line, problem: describeJsonError(error) };
}

/** V8's message on one short line: it may quote the broken text, newlines and all. */
export function describeJsonError(error: Error): string {
  const message = error.message.replace(/\s+/g, ' ').trim();
  return `invalid JSON: ${message.length > 160 ? `${message.slice(0, 157)}...` : message}`;
}

class SyntaxAt {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];

/** The offset of the first syntax error in `text` (its length for a premature end); -1 when valid. */
function findJsonErrorOffset(text: string): number {
  const scanner = new JsonScanner(text);
  try {
    scanner.document();
    return -1;
  } catch (error) {
    if (error instanceof SyntaxAt) return error.offset;
    throw error;
  }
}

/** A recursive-descent reading of JSON that only checks syntax; it throws SyntaxAt at the first error. */
class JsonScanner {
  private i = 0;

  constructor(private readonly text: string) {}

  document(): void {
    this.value();
    this.skipSpace();
    if (this.i < this.text.length) this.fail();
  }

  private value(): void {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === '{') this.sequence('}', () => this.member());
    else if (c === '[') this.sequence(']', () => this.value());
    else if (c === '"') this.string();
    else this.scalar();
  }

  private member(): void {
    this.skipSpace();
    if (this.text[this.i] !== '"') this.fail();
    this.string();
    this.skipSpace();
    if (this.text[this.i] !== ':') this.fail();
    this.i += 1;
    this.value();
  }

  private sequence(close: string, item: () => void): void {
    this.i += 1;
    this.skipSpace();
    if (this.text[this.i] !== close) {
      item();
      this.skipSpace();
      while (this.text[this.i] === ',') {
        this.i += 1;
        item();
        this.skipSpace();
      }
    }
    if (this.text[this.i] !== close) this.fail();
    this.i += 1;
  }

  private string(): void {
    for (this.i += 1; this.i < this.text.length; this.i += 1) {
      const c = this.text[this.i]!;
      if (c === '"') {
        this.i += 1;
        return;
      }
      if (c === '\\') this.i += 1;
      else if (c < ' ') this.fail();
    }
    this.fail();
  }

  private scalar(): void {
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.i));
    if (literal !== undefined) {
      this.i += literal.length;
      return;
    }
    NUMBER.lastIndex = this.i;
    if (NUMBER.exec(this.text) === null) this.fail();
    this.i = NUMBER.lastIndex;
  }

  private skipSpace(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i += 1;
  }

  private fail(): never {
    // A position signal caught in this file, never seen outside it: no stack needed.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw new SyntaxAt(this.i);
  }
}
