// The D-Bus wire format: signatures, values and whole messages to and from bytes, with strict bounds on what is read.
import { ALIGN, MAX_DEPTH, parseSignature, type TypeNode } from './dbus-signature.ts';
import { DbusError } from './network-errors.ts';

/**
 * A value as D-Bus carries it: numbers (`y n q i u d`, and `h` never: no descriptors cross here),
 * bigints (`x t`), booleans, strings (`s o g`), arrays and structs as JS arrays (a dict entry is a
 * two-element array), and variants with their own signature.
 */
export type DbusValue = number | bigint | boolean | string | DbusValue[] | DbusVariant;

export interface DbusVariant {
  signature: string;
  value: DbusValue;
}

export const MESSAGE_TYPES = { call: 1, return: 2, error: 3, signal: 4 } as const;
export type MessageType = keyof typeof MESSAGE_TYPES;

export interface DbusMessage {
  type: MessageType;
  /** 0x1: no reply expected; 0x2: do not start a service for it. */
  flags: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  /** The body's signature; absent for an empty body. */
  signature?: string;
  body: DbusValue[];
}

/**
 * The spec allows 128 MiB; what this client reads (NetworkManager's properties, a few kilobytes, and
 * the bus's own answers) is far smaller, so anything past this is refused before it is buffered.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const FIXED_HEADER_BYTES = 16;

/** Writes little-endian values into a growing buffer, aligned from the start of the message. */
class Writer {
  #buffer = Buffer.alloc(256);
  length = 0;

  #room(bytes: number): void {
    if (this.length + bytes <= this.#buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.#buffer.length * 2, this.length + bytes));
    this.#buffer.copy(bigger, 0, 0, this.length);
    this.#buffer = bigger;
  }

  align(to: number): void {
    const pad = (to - (this.length % to)) % to;
    this.#room(pad);
    this.#buffer.fill(0, this.length, this.length + pad);
    this.length += pad;
  }

  uint32(value: number): void {
    this.align(4);
    this.#room(4);
    this.#buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  setUint32(at: number, value: number): void {
    this.#buffer.writeUInt32LE(value, at);
  }

  value(node: TypeNode, value: DbusValue, depth = 0): void {
    if (depth > MAX_DEPTH) throw bad('a value nested too deep');
    const code = node.code;
    this.align(ALIGN[code]!);
    switch (code) {
      case 'y':
        this.#room(1);
        this.#buffer.writeUInt8(num(value, code), this.length++);
        return;
      case 'b':
        this.uint32(value === true ? 1 : 0);
        return;
      case 'n':
      case 'q':
        this.#room(2);
        if (code === 'n') this.#buffer.writeInt16LE(num(value, code), this.length);
        else this.#buffer.writeUInt16LE(num(value, code), this.length);
        this.length += 2;
        return;
      case 'i':
        this.#room(4);
        this.#buffer.writeInt32LE(num(value, code), this.length);
        this.length += 4;
        return;
      case 'u':
        this.uint32(num(value, code));
        return;
      case 'x':
      case 't':
        this.#room(8);
        if (code === 'x') this.#buffer.writeBigInt64LE(BigInt(value as bigint), this.length);
        else this.#buffer.writeBigUInt64LE(BigInt(value as bigint), this.length);
        this.length += 8;
        return;
      case 'd':
        this.#room(8);
        this.#buffer.writeDoubleLE(num(value, code), this.length);
        this.length += 8;
        return;
      case 's':
      case 'o':
      case 'g':
        this.#string(str(value, code), code === 'g');
        return;
      case 'v': {
        const variant = value as DbusVariant;
        const [inner, ...rest] = parseSignature(variant.signature);
        if (inner === undefined || rest.length > 0) throw bad(`a variant of "${variant.signature}"`);
        this.#string(variant.signature, true);
        this.value(inner, variant.value, depth + 1);
        return;
      }
      case 'a': {
        if (!Array.isArray(value)) throw bad('an array that is not one');
        const element = node.children[0]!;
        this.uint32(0);
        const lengthAt = this.length - 4;
        this.align(ALIGN[element.code]!);
        const start = this.length;
        for (const item of value) this.value(element, item, depth + 1);
        this.setUint32(lengthAt, this.length - start);
        return;
      }
      case '(':
      case '{': {
        if (!Array.isArray(value) || value.length !== node.children.length) {
          throw bad(`a ${code === '(' ? 'struct' : 'dict entry'} without its ${node.children.length} fields`);
        }
        node.children.forEach((child, index) => this.value(child, value[index]!, depth + 1));
        return;
      }
      default:
        throw bad(`the type "${code}"`);
    }
  }

  #string(text: string, short: boolean): void {
    const bytes = Buffer.from(text, 'utf8');
    if (short) {
      this.#room(1);
      this.#buffer.writeUInt8(bytes.length, this.length++);
    } else {
      this.uint32(bytes.length);
    }
    this.#room(bytes.length + 1);
    bytes.copy(this.#buffer, this.length);
    this.#buffer[this.length + bytes.length] = 0;
    this.length += bytes.length + 1;
  }

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.length);
  }
}

/** Reads values of either byte order, every length checked against what is left of the message. */
class Reader {
  readonly #buffer: Buffer;
  readonly #le: boolean;
  at: number;

  constructor(buffer: Buffer, littleEndian: boolean, at = 0) {
    this.#buffer = buffer;
    this.#le = littleEndian;
    this.at = at;
  }

  #need(bytes: number): void {
    if (this.at + bytes > this.#buffer.length) throw bad('a value past the end of the message');
  }

  align(to: number): void {
    this.at += (to - (this.at % to)) % to;
    if (this.at > this.#buffer.length) throw bad('padding past the end of the message');
  }

  uint32(): number {
    this.align(4);
    this.#need(4);
    const value = this.#le ? this.#buffer.readUInt32LE(this.at) : this.#buffer.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }

  value(node: TypeNode, depth = 0): DbusValue {
    if (depth > MAX_DEPTH) throw bad('a value nested too deep');
    const code = node.code;
    this.align(ALIGN[code]!);
    const b = this.#buffer;
    const le = this.#le;
    const fixed = <T>(size: number, read: () => T): T => {
      this.#need(size);
      const value = read();
      this.at += size;
      return value;
    };
    switch (code) {
      case 'y':
        return fixed(1, () => b.readUInt8(this.at));
      case 'b': {
        const value = this.uint32();
        if (value > 1) throw bad(`a boolean of ${value}`);
        return value === 1;
      }
      case 'n':
        return fixed(2, () => (le ? b.readInt16LE(this.at) : b.readInt16BE(this.at)));
      case 'q':
        return fixed(2, () => (le ? b.readUInt16LE(this.at) : b.readUInt16BE(this.at)));
      case 'i':
        return fixed(4, () => (le ? b.readInt32LE(this.at) : b.readInt32BE(this.at)));
      case 'u':
        return this.uint32();
      case 'x':
        return fixed(8, () => (le ? b.readBigInt64LE(this.at) : b.readBigInt64BE(this.at)));
      case 't':
        return fixed(8, () => (le ? b.readBigUInt64LE(this.at) : b.readBigUInt64BE(this.at)));
      case 'd':
        return fixed(8, () => (le ? b.readDoubleLE(this.at) : b.readDoubleBE(this.at)));
      case 's':
      case 'o':
        return this.#string(this.uint32());
      case 'g':
        return this.#string(fixed(1, () => b.readUInt8(this.at)));
      case 'v': {
        const signature = this.#string(fixed(1, () => b.readUInt8(this.at)));
        const [inner, ...rest] = parseSignature(signature);
        if (inner === undefined || rest.length > 0) throw bad(`a variant of "${signature}"`);
        return { signature, value: this.value(inner, depth + 1) };
      }
      case 'a': {
        const length = this.uint32();
        const element = node.children[0]!;
        this.align(ALIGN[element.code]!);
        const end = this.at + length;
        if (end > b.length) throw bad(`an array of ${length} bytes past the end of the message`);
        const items: DbusValue[] = [];
        while (this.at < end) items.push(this.value(element, depth + 1));
        if (this.at !== end) throw bad('an array whose elements overrun its length');
        return items;
      }
      case '(':
      case '{':
        return node.children.map((child) => this.value(child, depth + 1));
      default:
        throw bad(`the type "${code}"`);
    }
  }

  #string(length: number): string {
    this.#need(length + 1);
    if (this.#buffer[this.at + length] !== 0) throw bad('a string without its terminating NUL');
    const text = this.#buffer.toString('utf8', this.at, this.at + length);
    this.at += length + 1;
    return text;
  }
}

const FIELDS = [
  [1, 'path', 'o'],
  [2, 'interface', 's'],
  [3, 'member', 's'],
  [4, 'errorName', 's'],
  [5, 'replySerial', 'u'],
  [6, 'destination', 's'],
  [7, 'sender', 's'],
  [8, 'signature', 'g'],
] as const;
const FIELD_ARRAY = parseSignature('a(yv)')[0]!;

/** One message in bytes, little-endian. */
export function encodeMessage(message: DbusMessage): Buffer {
  const body = new Writer();
  const types = parseSignature(message.signature ?? '');
  if (types.length !== message.body.length) {
    throw bad(`a body of ${message.body.length} values for the signature "${message.signature ?? ''}"`);
  }
  types.forEach((node, index) => body.value(node, message.body[index]!));
  const fields: DbusValue[] = [];
  for (const [code, key, signature] of FIELDS) {
    const value = message[key];
    if (value !== undefined && value !== '') fields.push([code, { signature, value }]);
  }
  const header = new Writer();
  header.value({ code: 'y', children: [] }, 'l'.charCodeAt(0));
  header.value({ code: 'y', children: [] }, MESSAGE_TYPES[message.type]);
  header.value({ code: 'y', children: [] }, message.flags);
  header.value({ code: 'y', children: [] }, 1);
  header.uint32(body.length);
  header.uint32(message.serial);
  header.value(FIELD_ARRAY, fields);
  header.align(8);
  const whole = Buffer.concat([header.bytes(), body.bytes()]);
  if (whole.length > MAX_MESSAGE_BYTES) throw bad(`a message of ${whole.length} bytes`);
  return whole;
}

/**
 * The whole length of the message that starts `buffer`, once its first 16 bytes are there (else
 * undefined); DBUS_BAD_MESSAGE past MAX_MESSAGE_BYTES, so nothing larger is ever collected.
 */
export function messageLength(buffer: Buffer): number | undefined {
  if (buffer.length < FIXED_HEADER_BYTES) return undefined;
  const le = endianness(buffer);
  const bodyLength = le ? buffer.readUInt32LE(4) : buffer.readUInt32BE(4);
  const fieldsLength = le ? buffer.readUInt32LE(12) : buffer.readUInt32BE(12);
  const headerLength = FIXED_HEADER_BYTES + fieldsLength;
  const total = headerLength + ((8 - (headerLength % 8)) % 8) + bodyLength;
  if (total > MAX_MESSAGE_BYTES) throw bad(`a message of ${total} bytes (at most ${MAX_MESSAGE_BYTES})`);
  return total;
}

/** Reads one whole message (exactly `messageLength` bytes). */
export function decodeMessage(buffer: Buffer): DbusMessage {
  const le = endianness(buffer);
  const typeCode = buffer.readUInt8(1);
  const type = (Object.keys(MESSAGE_TYPES) as MessageType[]).find((key) => MESSAGE_TYPES[key] === typeCode);
  if (type === undefined) throw bad(`a message of type ${typeCode}`);
  if (buffer.readUInt8(3) !== 1) throw bad(`protocol version ${buffer.readUInt8(3)}`);
  const reader = new Reader(buffer, le, 4);
  const bodyLength = reader.uint32();
  const serial = reader.uint32();
  const message: DbusMessage = { type, flags: buffer.readUInt8(2), serial, body: [] };
  for (const field of reader.value(FIELD_ARRAY) as DbusValue[][]) {
    const [code, variant] = field as [number, DbusVariant];
    const known = FIELDS.find(([fieldCode]) => fieldCode === code);
    // Unknown header fields are ignored, as the spec asks.
    if (known === undefined) continue;
    if (variant.signature !== known[2]) throw bad(`the header field ${code} of type "${variant.signature}"`);
    (message as unknown as Record<string, DbusValue>)[known[1]] = variant.value;
  }
  reader.align(8);
  if (reader.at + bodyLength !== buffer.length) throw bad('a body whose length does not match its header');
  const types = parseSignature(message.signature ?? '');
  message.body = types.map((node) => reader.value(node));
  if (reader.at !== buffer.length) throw bad('bytes left after the body');
  return message;
}

function endianness(buffer: Buffer): boolean {
  const flag = buffer[0];
  if (flag === 0x6c) return true;
  if (flag === 0x42) return false;
  throw bad(`a message starting with byte ${flag ?? 'none'} (not "l" or "B")`);
}

function num(value: DbusValue, code: string): number {
  if (typeof value !== 'number') throw bad(`a "${code}" that is not a number`);
  return value;
}

function str(value: DbusValue, code: string): string {
  if (typeof value !== 'string') throw bad(`an "${code}" that is not a string`);
  return value;
}

function bad(what: string): DbusError {
  return new DbusError('DBUS_BAD_MESSAGE', `The D-Bus message has ${what}.`);
}
