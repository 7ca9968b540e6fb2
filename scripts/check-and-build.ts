// `npm test`'s first step: ESLint, Prettier's check and the build, side by side, each one's output printed whole when it ends.
//
// They read the same tree and write nothing the others read (the build writes dist/, which both checks
// ignore), and each is mostly one thread: run one after another they took about 95 s of a fresh clone's
// 15-minute budget on two cores, side by side about as long as ESLint alone. Any failure fails the step,
// after all three have ended, so one run says everything that is wrong.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string): string => join(root, 'node_modules', '.bin', name);

interface Step {
  name: string;
  command: string;
  args: string[];
}

const STEPS: Step[] = [
  { name: 'eslint', command: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'prettier', command: bin('prettier'), args: ['--check', '.'] },
  { name: 'build', command: 'npm', args: ['run', '-s', 'build'] },
];

function run(step: Step): Promise<{ step: Step; code: number; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const done = (code: number): void =>
      resolve({ step, code, output, seconds: (performance.now() - started) / 1000 });
    child.once('error', (error) => {
      output += `${error.message}\n`;
      done(1);
    });
    child.once('close', (code) => done(code ?? 1));
  });
}

const results = await Promise.all(
  STEPS.map(async (step) => {
    const result = await run(step);
    process.stdout.write(
      `\n> ${[step.name, ...step.args].join(' ')} (${result.seconds.toFixed(0)} s, exit ${result.code})\n`,
    );
    process.stdout.write(result.output);
    return result;
  }),
);
const failed = results.filter((result) => result.code !== 0).map((result) => result.step.name);
if (failed.length > 0) {
  process.stderr.write(`\ncheck-and-build: ${failed.join(', ')} failed\n`);
  process.exit(1);
}
