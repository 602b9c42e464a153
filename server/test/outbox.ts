/** Reading the outbox ($DATA_DIR/outbox) the way a mail client would: headers and the decoded text. */
import fs from 'node:fs';
import path from 'node:path';

export interface OutboxMessage {
  file: string;
  headers: Record<string, string>;
  body: string;
}

export function parseEml(raw: string): Omit<OutboxMessage, 'file'> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = raw.slice(split + 4);
  if (/quoted-printable/i.test(headers['content-transfer-encoding'] ?? '')) {
    // Quoted-printable encodes UTF-8 bytes: decode to bytes, then read them as UTF-8.
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    body = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (/base64/i.test(headers['content-transfer-encoding'] ?? '')) {
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  return { headers, body: body.replace(/\r\n/g, '\n') };
}

/** Every e-mail in the outbox of a data directory, oldest first; optionally only those to one address. */
export function outboxEmails(dataDir: string, to?: string): OutboxMessage[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => ({ file, ...parseEml(fs.readFileSync(path.join(dir, file), 'utf8')) }))
    .filter((m) => !to || m.headers.to?.toLowerCase() === to.toLowerCase());
}

/** The password link in an e-mail's text, and its token. */
export function passwordLink(body: string): { url: string; token: string } | null {
  const m = /(https?:\/\/\S+\/reset-password\?token=([A-Za-z0-9_%-]+))/.exec(body);
  return m ? { url: m[1]!, token: decodeURIComponent(m[2]!) } : null;
}
