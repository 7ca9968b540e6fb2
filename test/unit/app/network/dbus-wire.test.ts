// The D-Bus wire format: messages round-trip, either byte order is read, and every bound refuses what breaks it.
import { describe, expect, it } from 'vitest';
import {
  decodeMessage,
  encodeMessage,
  MAX_MESSAGE_BYTES,
  messageLength,
  type DbusMessage,
} from '../../../../app/network/dbus-wire.ts';
import { parseSignature } from '../../../../app/network/dbus-signature.ts';
import { socketPathsOf, networkManagerBus, DEFAULT_SYSTEM_BUS } from '../../../../app/network/bus-address.ts';

const signal: DbusMessage = {
  type: 'signal',
  flags: 1,
  serial: 7,
  path: '/org/freedesktop/NetworkManager',
  interface: 'org.freedesktop.DBus.Properties',
  member: 'PropertiesChanged',
  sender: ':1.4',
  signature: 'sa{sv}as',
  body: [
    'org.freedesktop.NetworkManager',
    [
      ['Metered', { signature: 'u', value: 1 }],
      ['PrimaryConnection', { signature: 'o', value: '/org/freedesktop/NetworkManager/ActiveConnection/3' }],
      ['Nested', { signature: 'a(ybnqixtd)', value: [[1, true, -2, 3, -4, 5n, 6n, 0.5]] }],
    ],
    [],
  ],
};

describe('D-Bus messages', () => {
  it('round-trip a signal with every basic type, a dict of variants and an empty array', () => {
    const bytes = encodeMessage(signal);
    expect(bytes[0]).toBe(0x6c);
    expect(messageLength(bytes)).toBe(bytes.length);
    expect(decodeMessage(bytes)).toEqual(signal);
  });

  it('says a message is not complete before its 16 fixed bytes arrive', () => {
    expect(messageLength(encodeMessage(signal).subarray(0, 15))).toBeUndefined();
  });

  it('reads a big-endian message (a sender on another byte order)', () => {
    // Hand-made: a method return, serial 2, reply to 1, body "u" 0x01020304.
    const header = Buffer.from([0x42, 2, 0, 1, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 15]);
    const fields = Buffer.from([5, 1, 0x75, 0, 0, 0, 0, 1, 8, 1, 0x67, 0, 1, 0x75, 0, 0]);
    const message = decodeMessage(Buffer.concat([header, fields, Buffer.from([1, 2, 3, 4])]));
    expect(message).toMatchObject({ type: 'return', serial: 2, replySerial: 1, body: [0x01020304] });
  });

  it('refuses a message longer than its bound before it is collected', () => {
    const bytes = Buffer.from(encodeMessage(signal));
    bytes.writeUInt32LE(MAX_MESSAGE_BYTES, 4);
    expect(() => messageLength(bytes)).toThrow(expect.objectContaining({ code: 'DBUS_BAD_MESSAGE' }));
  });

  it('refuses an array whose length runs past the message, a boolean of 2, a string without NUL', () => {
    const arrayAt = (bytes: Buffer): number =>
      bytes.indexOf(Buffer.from('org.freedesktop.NetworkManager\0')) + 31;
    const overrun = Buffer.from(encodeMessage(signal));
    overrun.writeUInt32LE(0xffff, arrayAt(overrun) + 1);
    expect(() => decodeMessage(overrun)).toThrow(/past the end/);

    const flag: DbusMessage = {
      type: 'return',
      flags: 0,
      serial: 1,
      replySerial: 1,
      signature: 'b',
      body: [true],
    };
    const badFlag = Buffer.from(encodeMessage(flag));
    badFlag.writeUInt32LE(2, badFlag.length - 4);
    expect(() => decodeMessage(badFlag)).toThrow(/boolean of 2/);

    const text: DbusMessage = {
      type: 'return',
      flags: 0,
      serial: 1,
      replySerial: 1,
      signature: 's',
      body: ['ab'],
    };
    const noNul = Buffer.from(encodeMessage(text));
    noNul[noNul.length - 1] = 0x41;
    expect(() => decodeMessage(noNul)).toThrow(/terminating NUL/);
  });

  it('refuses a bad signature, a unix fd and nesting past the bound', () => {
    expect(() => parseSignature('a{vs}')).toThrow(/dict entry/);
    expect(() => parseSignature('(i')).toThrow(/not closed/);
    expect(() => parseSignature('h')).toThrow(/not read here/);
    expect(() => parseSignature(`${'a'.repeat(70)}i`)).toThrow(/too deep/);
  });
});

describe('bus addresses', () => {
  it('names the Unix sockets of an address, abstract ones with a leading NUL, others skipped', () => {
    expect(socketPathsOf('tcp:host=x,port=1;unix:abstract=/tmp/dbus-1,guid=a;unix:path=/run/a%20b')).toEqual([
      '\0/tmp/dbus-1',
      '/run/a b',
    ]);
    expect(() => socketPathsOf('tcp:host=localhost,port=4')).toThrow(
      expect.objectContaining({ code: 'DBUS_UNREACHABLE' }),
    );
  });

  it('asks the explicit bus, then MCH_NM_BUS_ADDRESS, then the system bus', () => {
    expect(
      networkManagerBus({ MCH_NM_BUS_ADDRESS: 'unix:path=/a', DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/b' }),
    ).toBe('unix:path=/a');
    expect(networkManagerBus({ DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/b' })).toBe('unix:path=/b');
    expect(networkManagerBus({}, 'unix:path=/c')).toBe('unix:path=/c');
    expect(networkManagerBus({ MCH_NM_BUS_ADDRESS: '' })).toBe(DEFAULT_SYSTEM_BUS);
  });
});
