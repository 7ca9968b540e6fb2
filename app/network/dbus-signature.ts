// D-Bus type signatures: parsed into complete types, with the alignment of each and the bound on nesting.
import { DbusError } from './network-errors.ts';

/** The spec's limit on arrays and structs nested in each other (32 each), taken as one bound. */
export const MAX_DEPTH = 64;

export interface TypeNode {
  code: string;
  children: TypeNode[];
}

const BASIC = 'ybnqiuxtdsog';
export const ALIGN: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  s: 4,
  o: 4,
  g: 1,
  a: 4,
  '(': 8,
  '{': 8,
  v: 1,
};

/** Splits a signature into its complete types; DBUS_BAD_MESSAGE when it is not one. */
export function parseSignature(signature: string): TypeNode[] {
  if (signature.length > 255) throw bad(`a signature of ${signature.length} characters (at most 255)`);
  const nodes: TypeNode[] = [];
  let at = 0;
  const one = (depth: number): TypeNode => {
    if (depth > MAX_DEPTH) throw bad('a signature nested too deep');
    const code = signature[at++];
    if (code === undefined) throw bad(`the signature "${signature}" ends early`);
    if (BASIC.includes(code) || code === 'v') return { code, children: [] };
    if (code === 'a') return { code, children: [one(depth + 1)] };
    if (code === '(' || code === '{') {
      const close = code === '(' ? ')' : '}';
      const children: TypeNode[] = [];
      while (signature[at] !== close) {
        if (at >= signature.length) throw bad(`the signature "${signature}" is not closed`);
        children.push(one(depth + 1));
      }
      at += 1;
      const keyOk = children.length === 2 && BASIC.includes(children[0]!.code);
      if (code === '{' && !keyOk) throw bad(`a dict entry in "${signature}" is not {basic type, value}`);
      if (code === '(' && children.length === 0) throw bad(`an empty struct in "${signature}"`);
      return { code, children };
    }
    throw bad(`the type "${code}" in "${signature}" is not read here`);
  };
  while (at < signature.length) nodes.push(one(0));
  return nodes;
}

function bad(what: string): DbusError {
  return new DbusError('DBUS_BAD_MESSAGE', `The D-Bus message has ${what}.`);
}
