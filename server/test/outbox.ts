/**
 * The one e-mail reader of the tests, server and e2e (e2e/fixtures/outbox.ts): mailparser's simpleParser reads a
 * message as a mail client would (unfolded headers, encoded words, quoted-printable or base64 bodies), and the outbox
 * ($DATA_DIR/outbox) as its .eml files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';

export interface Email {
  /**
   * Every header by lower-case name, unfolded: Subject and other text decoded, addresses as mailparser writes them
   * (`"Name" <address>`), the rest (Date, Content-Type ...) as in the message.
   */
  headers: Record<string, string>;
  subject: string;
  from: { name: string; address: string } | undefined;
  /** The To addresses. */
  to: string[];
  /** The decoded text, LF line ends. */
  body: string;
}

export interface OutboxMessage extends Email {
  file: string;
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  [a ?? []].flat().flatMap((o) => o.value.map((v) => ({ name: v.name, address: v.address ?? '' })));

const isAddress = (v: unknown): v is AddressObject => typeof v === 'object' && v !== null && 'text' in v && 'value' in v && 'html' in v;

/** A whole message (an .eml file, or what an SMTP server received). */
export async function parseEmail(raw: string | Buffer): Promise<Email> {
  const mail = await simpleParser(raw);
  const headers: Record<string, string> = {};
  for (const { key, line } of mail.headerLines) {
    const value = mail.headers.get(key);
    if (typeof value === 'string') headers[key] = value;
    else if (isAddress(value)) headers[key] = value.text;
    else
      headers[key] = line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim();
  }
  return {
    headers,
    subject: mail.subject ?? '',
    from: addresses(mail.from)[0],
    to: addresses(mail.to).map((a) => a.address),
    body: (mail.text ?? '').replace(/\r\n/g, '\n'),
  };
}

/** One e-mail of the outbox of a data directory, by file name. */
export async function outboxEmail(dataDir: string, file: string): Promise<OutboxMessage> {
  return { file, ...(await parseEmail(fs.readFileSync(path.join(dataDir, 'outbox', file)))) };
}

/** Every e-mail in the outbox of a data directory, oldest first; optionally only those to one address. */
export async function outboxEmails(dataDir: string, to?: string): Promise<OutboxMessage[]> {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(files.map((file) => outboxEmail(dataDir, file)));
  return mails.filter((m) => !to || m.to.some((a) => a.toLowerCase() === to.toLowerCase()));
}

/** The password link in an e-mail's text, and its token. */
export function passwordLink(body: string): { url: string; token: string } | null {
  const m = /(https?:\/\/\S+\/reset-password\?token=([A-Za-z0-9_%-]+))/.exec(body);
  return m ? { url: m[1]!, token: decodeURIComponent(m[2]!) } : null;
}
