import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isTextSchema, multiLine, numberFromText, optionalLine, queryBoolean, singleLine, TEXT_MESSAGES } from './text.ts';

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('singleLine', () => {
  const name = singleLine({ max: 10, required: 'Name is required' });

  it('trims and normalises to NFC', () => {
    expect(name.parse('  Jose\u0301 ')).toBe('Jos\u00E9');
  });

  it('refuses controls, lone surrogates, format characters and line breaks', () => {
    for (const v of [
      'a\u0000',
      'a\u001B[31m',
      'a\u007F',
      'a\u0085b',
      'a\uD800',
      '\uDC00a',
      'a\u202Eb',
      'a\u2066b',
      'a\u200Bb',
      'a\uFEFFb',
      'a\u00ADb',
    ]) {
      expect(messages(name, v), JSON.stringify(v)).toEqual([TEXT_MESSAGES.refused]);
    }
    for (const v of ['a\nb', 'a\rb', 'a\tb', 'a\u2028b']) expect(messages(name, v), JSON.stringify(v)).toEqual([TEXT_MESSAGES.lineBreak]);
  });

  it('invisible-only text is empty: the required message, once', () => {
    for (const v of ['', '   ', '\u200B', '\u200D\u200C', undefined, null])
      expect(messages(name, v), JSON.stringify(v)).toEqual(['Name is required']);
  });

  it('keeps joiners inside text, and says "too long" when it is', () => {
    expect(name.parse('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    expect(messages(name, 'x'.repeat(11))).toEqual(['Must be at most 10 characters']);
    expect(isTextSchema(name)).toBe(true);
    expect(isTextSchema(z.string())).toBe(false);
  });
});

describe('multiLine and optionalLine', () => {
  it('multi-line takes TAB and line breaks, stored as LF, and still refuses NUL and bidi overrides', () => {
    const body = multiLine(100);
    expect(body.parse('One\r\n\tTwo\rThree')).toBe('One\n\tTwo\nThree');
    expect(messages(body, 'x\u0000')).toEqual([TEXT_MESSAGES.refused]);
    expect(messages(body, 'x\u202E')).toEqual([TEXT_MESSAGES.refused]);
  });

  it('optional text: absent, empty or invisible-only is null', () => {
    const note = optionalLine(20, 'multi');
    for (const v of [undefined, null, '', '  ', '\u200D']) expect(note.parse(v)).toBeNull();
    expect(note.parse(' a\r\nb ')).toBe('a\nb');
    expect(messages(note, 'a\u0000')).toEqual([TEXT_MESSAGES.refused]);
  });
});

describe('numbers and booleans from text', () => {
  it('numberFromText reads a plain decimal integer, refuses what z.coerce would have read', () => {
    const id = numberFromText(z.number().int().positive());
    expect(id.parse(12)).toBe(12);
    expect(id.parse('12')).toBe(12);
    for (const v of [true, false, '', ' 12', '1e1', '0x10', null, [1], '12abc'])
      expect(id.safeParse(v).success, JSON.stringify(v)).toBe(false);
  });

  it('queryBoolean is exactly "true" or "false"', () => {
    expect(queryBoolean.parse('true')).toBe(true);
    expect(queryBoolean.parse('false')).toBe(false);
    for (const v of ['1', '0', 'yes', 'TRUE', '', true, false]) expect(queryBoolean.safeParse(v).success, JSON.stringify(v)).toBe(false);
  });
});
