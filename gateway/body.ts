// The JSON body parser: every content type is read as JSON, up to BODY_LIMIT bytes and MAX_DEPTH levels of nesting.
// Provider notifications are kept as raw bytes instead (rawBody): their signature covers the exact body.
import express from 'express';
import { errors } from '../lib/errors.ts';

export const BODY_LIMIT = '256kb';
/** Far deeper than any request schema; deep enough nesting overflows the stack of whatever walks it later. */
export const MAX_DEPTH = 32;

/** Whether the JSON text nests deeper than `max` ({ and [ outside strings). */
export function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The body as text in its charset (body-parser accepts only utf-*; TextDecoder lacks utf-32, read as latin1 then). */
function decode(buf: Buffer, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(buf);
  } catch {
    return buf.toString('latin1');
  }
}

export function jsonBody() {
  return express.json({
    limit: BODY_LIMIT,
    type: () => true,
    // Runs on the raw bytes before JSON.parse: a refused body is never parsed.
    verify: (_req, _res, buf, encoding) => {
      if (nestsDeeper(decode(buf, encoding), MAX_DEPTH)) throw errors.tooDeep(MAX_DEPTH);
    },
  });
}

/** The body as received (a Buffer in req.body), for routes that verify a signature over it; mounted before jsonBody,
 * which then leaves the request alone (body-parser reads a request once). Same limits. */
export function rawBody() {
  return express.raw({
    limit: BODY_LIMIT,
    type: () => true,
    verify: (_req, _res, buf) => {
      if (nestsDeeper(buf.toString('latin1'), MAX_DEPTH)) throw errors.tooDeep(MAX_DEPTH);
    },
  });
}
