// Reading query parameters strictly: a repeated or malformed parameter is a 400, never a guess.
import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('INVALID_PARAMETER', `${name} must be given once.`);
  return value;
}

export function requiredParam(request: FastifyRequest, name: string): string {
  const value = queryParam(request, name);
  if (value === undefined || value === '') {
    throw badRequest('GENERAL_INSUFFICIENT_PARAMETERS', `The query parameter ${name} is required.`);
  }
  return value;
}

/** `true`/`1` or `false`/`0` (device-api.md §3 accepts both spellings for resolveNameConflict). */
export function booleanParam(request: FastifyRequest, name: string, fallback: boolean): boolean {
  const value = queryParam(request, name);
  if (value === undefined) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw badRequest('INVALID_PARAMETER', `${name} must be true or false.`);
}

export function integerParam(
  request: FastifyRequest,
  name: string,
  range: { min: number; max: number; fallback?: number },
): number | undefined {
  const value = queryParam(request, name);
  if (value === undefined) return range.fallback;
  if (!/^\d+$/.test(value)) throw badRequest('INVALID_PARAMETER', `${name} must be a whole number.`);
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < range.min || number > range.max) {
    throw badRequest('INVALID_PARAMETER', `${name} must be between ${range.min} and ${range.max}.`);
  }
  return number;
}

export function enumParam<T extends string>(
  request: FastifyRequest,
  name: string,
  values: readonly T[],
  fallback: T,
): T {
  const value = queryParam(request, name);
  if (value === undefined) return fallback;
  if (!(values as readonly string[]).includes(value)) {
    throw badRequest('INVALID_PARAMETER', `${name} must be one of ${values.join(', ')}.`);
  }
  return value as T;
}
