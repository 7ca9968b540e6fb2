// The fallback where NetworkManager is absent: the machine's interface addresses, compared every 10 s (a local call, no I/O).
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Clock, TimerHandle } from '../system/clock.ts';

export type InterfaceReader = () => NodeJS.Dict<NetworkInterfaceInfo[]>;

/**
 * The addresses that say where the machine is: every interface's but the loopback's, sorted so the
 * order the OS lists them in does not count as a change.
 */
export function addressSnapshot(read: InterfaceReader = networkInterfaces): string {
  const lines: string[] = [];
  for (const [name, infos] of Object.entries(read())) {
    for (const info of infos ?? []) {
      if (!info.internal) lines.push(`${name} ${info.address}/${info.netmask}`);
    }
  }
  return lines.sort().join('\n');
}

/** Compares the snapshot every `everyMs` and calls `onChange` with what came and went. */
export class AddressPoll {
  readonly #clock: Clock;
  readonly #everyMs: number;
  readonly #read: InterfaceReader;
  readonly #onChange: (why: string) => void;
  #last: string;
  #timer: TimerHandle | undefined;

  constructor(options: {
    clock: Clock;
    everyMs: number;
    read?: InterfaceReader;
    onChange: (why: string) => void;
  }) {
    this.#clock = options.clock;
    this.#everyMs = options.everyMs;
    this.#read = options.read ?? networkInterfaces;
    this.#onChange = options.onChange;
    this.#last = addressSnapshot(this.#read);
    this.#schedule();
  }

  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      const now = addressSnapshot(this.#read);
      const before = this.#last;
      this.#last = now;
      this.#schedule();
      if (now !== before) this.#onChange(`interface addresses changed (${difference(before, now)})`);
    }, this.#everyMs);
  }
}

function difference(before: string, now: string): string {
  const old = new Set(before.split('\n').filter(Boolean));
  const current = new Set(now.split('\n').filter(Boolean));
  const added = [...current].filter((line) => !old.has(line)).map((line) => `+${line}`);
  const removed = [...old].filter((line) => !current.has(line)).map((line) => `-${line}`);
  return [...added, ...removed].join(', ');
}
