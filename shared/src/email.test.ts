import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES, emailSchema, mixesScripts, normalizeEmail } from './email.ts';

const parse = (v: unknown) => {
  const r = emailSchema.safeParse(v);
  return r.success ? { ok: r.data } : { error: r.error.issues[0]!.message };
};

describe('emailSchema', () => {
  it('normalises: NFKC, trimmed, lower case', () => {
    expect(parse('  Admin@T.Test ')).toEqual({ ok: 'admin@t.test' });
    expect(parse('ａｄｍｉｎ@t.test')).toEqual({ ok: 'admin@t.test' }); // full-width letters fold to ASCII
    expect(normalizeEmail('JOSÉ@Example.COM')).toBe('josé@example.com');
  });

  it('refuses invisible characters', () => {
    for (const v of [
      'admin@t.test\u200b',
      'ad\u200dmin@t.test',
      '\ufeffadmin@t.test\u200b',
      'admin\u00ad@t.test',
      'ad\u2060min@t.test',
      'a\u0007@t.test',
    ]) {
      expect(parse(v)).toEqual({ error: EMAIL_MESSAGES.invisible });
    }
  });

  it('refuses a local part or domain label that mixes scripts, allows single-script and CJK mixes', () => {
    expect(parse('\u0430dmin@t.test')).toEqual({ error: EMAIL_MESSAGES.mixedScript }); // Cyrillic а + Latin
    expect(parse('admin@t\u0435st.test')).toEqual({ error: EMAIL_MESSAGES.mixedScript }); // Cyrillic е in the domain
    expect(parse('\u03bfpen@t.test')).toEqual({ error: EMAIL_MESSAGES.mixedScript }); // Greek ο + Latin
    expect(parse('иван@пример.рф')).toEqual({ ok: 'иван@пример.рф' });
    expect(parse('ivan@пример.рф')).toEqual({ ok: 'ivan@пример.рф' }); // each part is one script
    expect(mixesScripts('山田taro@example.jp')).toBe(false);
    expect(mixesScripts('josé.garcía@example.es')).toBe(false);
  });

  it('keeps the required and format messages', () => {
    expect(parse('')).toEqual({ error: EMAIL_MESSAGES.required });
    expect(parse('   ')).toEqual({ error: EMAIL_MESSAGES.required });
    expect(parse(undefined)).toEqual({ error: EMAIL_MESSAGES.required });
    expect(parse('not-an-email')).toEqual({ error: EMAIL_MESSAGES.invalid });
  });
});
