// NO_PROXY as curl reads it (lib/noproxy.c): which hosts are reached directly even when a proxy is set.
import { isIP } from 'node:net';

/** One entry of a NO_PROXY list. */
type NoProxyEntry =
  | { kind: 'name'; name: string; port: number | undefined }
  | { kind: 'address'; family: 4 | 6; bytes: Uint8Array; bits: number; port: number | undefined };

/**
 * A parsed NO_PROXY list. As curl: entries separated by commas or blanks; `*` alone (the whole value)
 * means every host; a name matches itself and every name under it (`example.com` matches
 * `www.example.com`, never `notexample.com`), leading and trailing dots ignored, case ignored; an
 * address matches itself, or its network with `/bits` (CIDR, as curl since 7.86). Beyond curl, which
 * never matches an entry with a port, `host:port` (and `[::1]:port`) matches that host on that port only,
 * as Go and Python read it: a person who writes a port means that service and no other.
 *
 * There is no implicit exception for loopback, as in curl: `localhost` goes through the proxy unless
 * NO_PROXY names it. A proxy on the same computer (a debugging proxy, a corporate agent) may be the
 * point, and a rule people did not write would be one more thing to explain.
 */
export class NoProxyList {
  readonly #all: boolean;
  readonly #entries: NoProxyEntry[];
  /** As given, for `mch-sync proxy --show`. */
  readonly text: string;

  constructor(text: string | undefined) {
    this.text = (text ?? '').trim();
    this.#all = this.text === '*';
    this.#entries = this.#all ? [] : parseEntries(this.text);
  }

  /** Whether `url` is reached without a proxy. */
  bypasses(url: URL): boolean {
    if (this.#all) return true;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (host === '') return false;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const address = addressBytes(host);
    const name = host.replace(/\.$/, '');
    return this.#entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.kind === 'address') {
        return address !== undefined && address.length === entry.bytes.length && inNetwork(address, entry);
      }
      if (address !== undefined) return false;
      return name === entry.name || name.endsWith(`.${entry.name}`);
    });
  }
}

function parseEntries(text: string): NoProxyEntry[] {
  const entries: NoProxyEntry[] = [];
  for (const token of text.split(/[\s,]+/)) {
    const entry = parseEntry(token);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

function parseEntry(token: string): NoProxyEntry | undefined {
  if (token === '' || token === '*') return undefined;
  let host = token;
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(token);
  if (bracketed) {
    host = bracketed[1] as string;
    port = bracketed[2] === undefined ? undefined : Number(bracketed[2]);
  } else {
    // One colon is a port; more are an IPv6 address written without brackets (curl's form).
    const withPort = /^([^:]+):(\d+)$/.exec(token);
    if (withPort) {
      host = withPort[1] as string;
      port = Number(withPort[2]);
    }
  }
  const [address = '', bitsText] = host.split('/', 2);
  const bytes = addressBytes(address.toLowerCase());
  if (bytes !== undefined) {
    const full = bytes.length * 8;
    const bits = bitsText === undefined ? full : Number(bitsText);
    // curl rejects a prefix longer than the address; such an entry matches nothing.
    if (!Number.isInteger(bits) || bits < 0 || bits > full) return undefined;
    return { kind: 'address', family: bytes.length === 4 ? 4 : 6, bytes, bits, port };
  }
  const name = host.toLowerCase().replace(/^\./, '').replace(/\.$/, '');
  return name === '' ? undefined : { kind: 'name', name, port };
}

/** The bytes of an IPv4 or IPv6 address, or undefined for a name. */
function addressBytes(host: string): Uint8Array | undefined {
  const family = isIP(host);
  if (family === 4) return Uint8Array.from(host.split('.').map(Number));
  if (family !== 6) return undefined;
  let text = host;
  // An IPv4 tail (::ffff:127.0.0.1) becomes two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function inNetwork(address: Uint8Array, entry: { bytes: Uint8Array; bits: number }): boolean {
  for (let bit = 0; bit < entry.bits; bit += 8) {
    const index = bit / 8;
    const take = Math.min(8, entry.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((address[index] as number) & mask) !== ((entry.bytes[index] as number) & mask)) return false;
  }
  return true;
}
