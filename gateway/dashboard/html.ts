// HTML built by escaping: every value put into an html`...` template is escaped unless it is itself SafeHtml (made by
// html`...` or raw()), and a list is joined item by item under the same rule. Pages never concatenate strings.

const brand: unique symbol = Symbol('SafeHtml');

/** Markup that is safe to send as it is. Only html`...` and raw() make one. */
export interface SafeHtml {
  readonly [brand]: true;
  readonly text: string;
  toString(): string;
}

const safe = (text: string): SafeHtml => ({ [brand]: true, text, toString: () => text });

export const isSafeHtml = (v: unknown): v is SafeHtml => typeof v === 'object' && v !== null && (v as Partial<SafeHtml>)[brand] === true;

/** Text for an HTML element's content or a quoted attribute's value. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A value put into a template: SafeHtml as it is, a list item by item, null/undefined/false as nothing, else escaped text. */
type Value = SafeHtml | string | number | boolean | null | undefined | readonly Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  if (isSafeHtml(v)) return v.text;
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return safe(out);
}

/** Trusted markup (our own constants): never a value that came from a request or a store. */
export const raw = (trusted: string): SafeHtml => safe(trusted);

/** Items joined by a separator, every item escaped unless SafeHtml. */
export const join = (items: readonly Value[], separator: SafeHtml = raw('')): SafeHtml => safe(items.map(render).join(separator.text));
