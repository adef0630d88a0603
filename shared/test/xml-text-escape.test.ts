// Escaping of element text and attribute values: the fast path for text with nothing to escape must
// give exactly what escaping character by character gives, on plain text and on every special character.
import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText } from '../src/index.js';

const TEXT_REFERENCES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;', '\n': '&#10;' };
const ATTRIBUTE_REFERENCES: Readonly<Record<string, string>> = { ...TEXT_REFERENCES, '"': '&quot;', "'": '&apos;', '\t': '&#9;' };

/** The specification, one character at a time. */
function escapedByCharacter(value: string, references: Readonly<Record<string, string>>): string {
  return Array.from(value, (character) => references[character] ?? character).join('');
}

/** Deterministic strings mixing plain, non-Latin and special characters (no Math.random: a failure must repeat). */
function sampleStrings(count: number): string[] {
  const alphabet = ['a', 'Z', '0', ' ', '-', '.', '₹', 'é', '漢', '😀', '&', '<', '>', '\r', '\n', '"', "'", '\t', '&amp;', ';'];
  let seed = 23;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: count }, () => Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join(''));
}

describe('escapeXmlText / escapeXmlAttribute', () => {
  const samples = ['', 'Ram & Sons', 'Sales - Services', 'a<b>c', 'line\r\nnext', `"quoted" 'single'\ttab`, ...sampleStrings(5000)];

  it('escape element text as escaping each character does', () => {
    for (const value of samples) expect(escapeXmlText(value)).toBe(escapedByCharacter(value, TEXT_REFERENCES));
  });

  it('escape attribute values as escaping each character does', () => {
    for (const value of samples) expect(escapeXmlAttribute(value)).toBe(escapedByCharacter(value, ATTRIBUTE_REFERENCES));
  });

  it('answer text with nothing to escape unchanged, call after call', () => {
    expect(escapeXmlText('Output CGST')).toBe('Output CGST');
    expect(escapeXmlText('A & B')).toBe('A &amp; B');
    expect(escapeXmlText('Output SGST')).toBe('Output SGST');
  });
});
