// Form fields with their error shown beside them, and a zod error turned into one message per field.
import type { z } from 'zod';
import { ApiError } from '../../lib/errors.ts';
import { html, type SafeHtml } from './html.ts';

export type FieldErrors = Record<string, string>;

/** The first problem of each field (by the first segment of its path); a problem of the whole form under `_form`. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const name = issue.path.length ? issue.path.map(String).join('.') : '_form';
    out[name] ??= issue.message;
  }
  return out;
}

export interface FieldOptions {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'search' | 'date';
  value?: string | null;
  error?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  minlength?: number;
}

/** A labelled input; its error (if any) below it, tied to it with aria-describedby. */
export function field(o: FieldOptions): SafeHtml {
  const id = `f-${o.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const described = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<label for="${id}">${o.label}</label>
<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}"${o.value ? html` value="${o.value}"` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.required ? html` required` : ''}${o.minlength ? html` minlength="${o.minlength}"` : ''}${o.error ? html` aria-invalid="true"` : ''}${described ? html` aria-describedby="${described}"` : ''}>
${o.hint ? html`<p class="muted" id="${id}-hint">${o.hint}</p>` : ''}${o.error ? html`<p class="field-error" id="${id}-error">${o.error}</p>` : ''}`;
}

/** A message above a form or page: an error (role=alert) or a confirmation. */
export const notice = (kind: 'error' | 'ok', message: string | undefined): SafeHtml =>
  message ? html`<div class="alert ${kind}"${kind === 'error' ? html` role="alert"` : html` role="status"`}>${message}</div>` : html``;

/** A 400 the API's code threw naming a field (ApiError.param), as that field's error; null for anything else. */
export function apiFieldError(err: unknown): FieldErrors | null {
  return err instanceof ApiError && err.status === 400 && err.param ? { [err.param]: err.message } : null;
}

/** A form field's text (urlencoded forms give strings; a repeated field gives its first). */
export function formText(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null || !(name in body)) return undefined;
  const v: unknown = (body as Record<string, unknown>)[name];
  if (Array.isArray(v)) return typeof v[0] === 'string' ? v[0] : undefined;
  return typeof v === 'string' ? v : undefined;
}
