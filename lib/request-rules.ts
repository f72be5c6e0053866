// A provider's published request rules (required fields, maximum lengths, enums, maximum items) as data, checked
// against a request body. The rules are a provider's own, kept in its connector's fixtures (e.g.
// workers/connectors/riverty/fixtures/rules.json): the connector's tests check our requests with them and the
// provider's imitation refuses by them, so neither can agree with a rule only one of them believes. Pure.
// Paths: `a.b` a field, `a.b[]` every element of the array at a.b, `a.b[].c` the field c of each.
import { z } from 'zod';

export const RequestRules = z.object({
  required: z.array(z.string()).default([]),
  maxLength: z.record(z.string(), z.number().int().positive()).default({}),
  enum: z.record(z.string(), z.array(z.string()).min(1)).default({}),
  maxItems: z.record(z.string(), z.number().int().positive()).default({}),
});
export type RequestRules = z.infer<typeof RequestRules>;

/** What breaks a rule: the field's path (array elements numbered, `order.items[2].type`) and why. */
export interface RuleBreach {
  field: string;
  message: string;
}

/** Every value at `path` in `body`, with its concrete path; an absent field is `undefined` at its path. */
function valuesAt(body: unknown, path: string): { field: string; value: unknown }[] {
  let found: { field: string; value: unknown }[] = [{ field: '', value: body }];
  for (const part of path.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    const next: { field: string; value: unknown }[] = [];
    for (const { field, value } of found) {
      // Only a parent that is there can miss a child: a missing object is the parent's rule to name.
      if (value === undefined || value === null) continue;
      const child = typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
      const at = field ? `${field}.${key}` : key;
      if (!each) next.push({ field: at, value: child });
      else if (Array.isArray(child))
        child.forEach((v, i) => {
          next.push({ field: `${at}[${i}]`, value: v });
        });
    }
    found = next;
  }
  return found;
}

/** The first rule `body` breaks, or null. */
export function firstBreach(rules: RequestRules, body: unknown): RuleBreach | null {
  for (const path of rules.required) {
    for (const { field, value } of valuesAt(body, path)) {
      if (value === undefined || value === null || value === '') return { field, message: `${field} is required` };
    }
  }
  for (const [path, max] of Object.entries(rules.maxLength)) {
    for (const { field, value } of valuesAt(body, path)) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') return { field, message: `${field} must be a string` };
      if (value.length > max) return { field, message: `${field} must be at most ${max} characters` };
    }
  }
  for (const [path, allowed] of Object.entries(rules.enum)) {
    for (const { field, value } of valuesAt(body, path)) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || !allowed.includes(value)) return { field, message: `${field} must be one of ${allowed.join(', ')}` };
    }
  }
  for (const [path, max] of Object.entries(rules.maxItems)) {
    for (const { field, value } of valuesAt(body, path)) {
      if (Array.isArray(value) && value.length > max) return { field, message: `${field} must hold at most ${max} items` };
    }
  }
  return null;
}
