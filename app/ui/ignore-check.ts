// Ignore rules read line by line as Git reads them, for the lines that cannot be read: the `ignore` matcher (like Git) makes such a pattern match nothing without a word, so the settings refuse it instead.

/** A line of ignore rules that matches nothing because it cannot be read, and why. */
export interface IgnoreRuleProblem {
  /** 1-based, as an editor counts. */
  line: number;
  text: string;
  problem: string;
}

/** Git's POSIX classes inside brackets (`[[:digit:]]`), the only names a bracket may hold. */
const CLASSES = new Set([
  'alnum',
  'alpha',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'xdigit',
]);

/** Every line of `text` that cannot be read, in order; empty when all can. */
export function ignoreRuleProblems(text: string): IgnoreRuleProblem[] {
  const problems: IgnoreRuleProblem[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const problem = lineProblem(line);
    if (problem !== undefined) problems.push({ line: index + 1, text: line, problem });
  });
  return problems;
}

function lineProblem(line: string): string | undefined {
  // Trailing spaces go, unless escaped (gitignore(5)); blank lines and comments say nothing.
  const pattern = line.replace(/(?<!\\) +$/, '');
  if (pattern.trim() === '' || pattern.startsWith('#')) return undefined;
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  if (body === '') return 'a "!" with no pattern after it brings nothing back';
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === '\\') {
      if (index === body.length - 1)
        return 'it ends with a lone "\\" (write "\\\\" for a backslash in a name)';
      index += 1;
    } else if (char === '[') {
      const end = bracketEnd(body, index);
      if (typeof end === 'string') return end;
      index = end;
    }
  }
  return undefined;
}

/**
 * Where the bracket expression opened at `start` closes, or why it cannot be read. Git's rules
 * (wildmatch.c): a `]` right after `[` or `[!` is a member, `\` escapes a member, `[:name:]` is a
 * class; a range must not run backwards (Git lets `[z-a]` match only `z`, surely not what was meant).
 */
function bracketEnd(body: string, start: number): number | string {
  const unclosed = `the "[" at character ${start + 1} is never closed (write "\\[" for a bracket in a name)`;
  let index = start + 1;
  if (body[index] === '!' || body[index] === '^') index += 1;
  let previous: string | undefined;
  let first = true;
  for (; index < body.length; index += 1) {
    const char = body[index] as string;
    if (char === ']' && !first) return index;
    first = false;
    if (char === '\\') {
      index += 1;
      if (index >= body.length) return unclosed;
      previous = body[index];
    } else if (char === '[' && body[index + 1] === ':') {
      const close = body.indexOf(']', index + 2);
      if (close === -1) return unclosed;
      if (close > index + 2 && body[close - 1] === ':') {
        const name = body.slice(index + 2, close - 1);
        if (!CLASSES.has(name))
          return `"[:${name}:]" is not a character class (such as [:digit:] or [:alpha:])`;
        index = close;
        previous = undefined;
      } else {
        // No ":]" to close it: the "[" is a member, and the ":" after it the next one.
        previous = char;
      }
    } else if (char === '-' && previous !== undefined && index + 1 < body.length && body[index + 1] !== ']') {
      let to = body[index + 1] as string;
      let skip = 1;
      if (to === '\\' && index + 2 < body.length) {
        to = body[index + 2] as string;
        skip = 2;
      }
      if (to < previous) return `the range "${previous}-${to}" runs backwards (write "${to}-${previous}")`;
      index += skip;
      previous = undefined;
    } else {
      previous = char;
    }
  }
  return unclosed;
}
