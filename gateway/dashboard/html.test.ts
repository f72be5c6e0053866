import { describe, expect, it } from 'vitest';
import { escapeHtml, html, join, raw } from './html.ts';

describe('html``: escape by default', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const evil = `<script>alert("x")</script>' onmouseover='x' \`&`;
    const out = html`<p title="${evil}">${evil}</p>`.text;
    expect(out).not.toContain('<script>');
    // No quote survives to end the attribute.
    expect(out.slice('<p title="'.length, out.indexOf('">'))).not.toMatch(/["'`<>]/);
    expect(out).toBe(`<p title="${escapeHtml(evil)}">${escapeHtml(evil)}</p>`);
    expect(escapeHtml(evil)).toBe('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#39; onmouseover=&#39;x&#39; &#96;&#38;');
  });

  it('keeps SafeHtml (nested templates, raw()) as it is, and escapes the strings inside them', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${raw('<br>')}</p>`.text).toBe('<p><b>&#60;i&#62;</b><br></p>');
  });

  it('joins a list item by item: strings escaped, SafeHtml kept; nothing for null, undefined and false', () => {
    const items = ['<a>', html`<li>${'&'}</li>`, null, undefined, false, 0];
    expect(html`<ul>${items}</ul>`.text).toBe('<ul>&#60;a&#62;<li>&#38;</li>0</ul>');
    expect(join(['<x>', html`<y/>`], raw(', ')).text).toBe('&#60;x&#62;, <y/>');
  });

  it('a plain object that only looks like SafeHtml is escaped as text', () => {
    const forged = { text: '<script>', toString: () => '<script>' };
    expect(html`${forged as unknown as string}`.text).toBe('&#60;script&#62;');
  });
});
