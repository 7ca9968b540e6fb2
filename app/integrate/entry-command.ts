// The command the file-manager entries run: this installation's own `mch-sync`, or `--command` split into words.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { IntegrateError } from './integrate-errors.ts';

export interface OwnCommandInputs {
  /** The Node running this command (`process.execPath`). */
  execPath: string;
  /** The absolute path of `bin/mch-sync.js`. */
  binPath: string;
}

/** `node bin/mch-sync.js`: the entries run the installation that installed them, with the same Node. */
export function ownCommand(inputs: OwnCommandInputs): string[] {
  return [inputs.execPath, inputs.binPath];
}

/** `--profile DIR` after the command when the profile is not the default one, else nothing. */
export function profileWords(profileDir: string, defaultProfile: boolean): string[] {
  return defaultProfile ? [] : ['--profile', profileDir];
}

// Outside quotes a shell would give these a meaning of their own (pipes, redirections, expansions,
// globs); `--command` is split like a shell splits words but never run through one, so they are
// refused instead of being passed on literally.
const SHELL_SPECIAL = new Set(['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[']);
// A shell treats these specially only at the start of a word: a comment, the home folder.
const WORD_START_SPECIAL = new Set(['#', '~']);

/**
 * Splits `--command`'s text into words by POSIX shell rules: blanks separate words, '...' is literal,
 * "..." keeps its text with \ before $ ` " \ and newline, a \ outside quotes keeps the next character.
 * Nothing is expanded: `$`, backquotes, globs, `~`, operators and comments outside quotes are refused
 * (put such a command in a script), so a command means the same in every file manager.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let index = 0;
  const fail = (what: string): never => {
    throw new IntegrateError(
      'INTEGRATION_BAD_COMMAND',
      `--command: ${what} (at character ${index + 1} of ${JSON.stringify(text)}). It is split into words ` +
        'as a shell does but not run by one: quote or escape such characters, or put the command in a script.',
    );
  };
  while (index < text.length) {
    const char = text[index] ?? '';
    if (char === ' ' || char === '\t' || char === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      index += 1;
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) fail('a single quote is not closed');
      word += text.slice(index + 1, end);
      inWord = true;
      index = end + 1;
    } else if (char === '"') {
      index += 1;
      for (;;) {
        if (index >= text.length) fail('a double quote is not closed');
        const inner = text[index] ?? '';
        if (inner === '"') break;
        if (inner === '\\' && index + 1 < text.length && '$`"\\\n'.includes(text[index + 1] ?? '')) {
          if (text[index + 1] !== '\n') word += text[index + 1];
          index += 2;
        } else if (inner === '$' || inner === '`') {
          fail(`"${inner}" inside double quotes would be expanded by a shell`);
        } else {
          word += inner;
          index += 1;
        }
      }
      inWord = true;
      index += 1;
    } else if (char === '\\') {
      if (index + 1 >= text.length) fail('the command ends with a backslash');
      // Backslash-newline joins lines in a shell: it adds nothing to the word.
      if (text[index + 1] !== '\n') {
        word += text[index + 1];
        inWord = true;
      }
      index += 2;
    } else if (SHELL_SPECIAL.has(char) || (!inWord && WORD_START_SPECIAL.has(char))) {
      fail(`"${char}" outside quotes would be interpreted by a shell`);
    } else {
      word += char;
      inWord = true;
      index += 1;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) {
    throw new IntegrateError('INTEGRATION_BAD_COMMAND', '--command is empty: give the program to run.');
  }
  return words;
}

export interface ProgramLookup {
  env: NodeJS.ProcessEnv;
  /** Where a relative program path is taken from (the command's working folder). */
  cwd: string;
}

/**
 * The words with their program made absolute: a file manager runs the entry with its own working
 * folder and often its own PATH, so a relative path or a bare name found in this shell's PATH is
 * resolved now. Refuses a program that is not an executable file.
 */
export function resolveProgram(words: readonly string[], lookup: ProgramLookup): string[] {
  const [program, ...rest] = words;
  if (program === undefined || program === '') {
    throw new IntegrateError('INTEGRATION_BAD_COMMAND', '--command is empty: give the program to run.');
  }
  let path: string | undefined;
  if (program.includes('/')) {
    path = resolve(lookup.cwd, program);
    if (!isExecutableFile(path)) {
      throw new IntegrateError('INTEGRATION_BAD_COMMAND', `--command: ${path} is not an executable file.`);
    }
  } else {
    const folders = (lookup.env['PATH'] ?? '').split(delimiter).filter((folder) => isAbsolute(folder));
    path = folders.map((folder) => join(folder, program)).find(isExecutableFile);
    if (path === undefined) {
      throw new IntegrateError(
        'INTEGRATION_BAD_COMMAND',
        `--command: no program "${program}" in PATH; give its absolute path.`,
      );
    }
  }
  return [path, ...rest];
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
