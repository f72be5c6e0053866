// A request's cookie by name (the gateway's browser sessions: the queue board's and the merchant dashboard's).
import type { Request } from 'express';

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
