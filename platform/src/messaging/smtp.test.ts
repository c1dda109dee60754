import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { closedPort, sampleMessage } from './messaging.test-support';
import { ChannelSendError } from './port';
import { createSmtpSender, htmlOf, messageIdFor } from './smtp';

interface Received {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** A real SMTP server in this process: plain connection, AUTH required, some recipients refused as a server would. */
async function startServer() {
  const received: Received[] = [];
  const logins: Array<{ username: string | undefined; password: string | null | undefined }> = [];
  const server = new SMTPServer({
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username, password: auth.password });
      if (auth.username === 'mailer' && auth.password === 's3cret pass') return callback(null, { user: 'mailer' });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@')) return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
      if (address.address.startsWith('busy@')) return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), user: typeof session.user === 'string' ? session.user : undefined, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, received, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A header's value in a raw message (unfolded). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** Undoes quoted-printable (the HTML part's long line is sent so). */
function quotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const FROM = 'Telemed <no-reply@telemed.example.in>';

describe('SMTP sender', () => {
  let smtp: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    smtp = await startServer();
  });
  after(async () => {
    await smtp.close();
  });

  it('hands the mail to the server with its subject and text, logged in with the URL\'s credentials', async () => {
    const sender = createSmtpSender({ url: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${smtp.port}`, from: FROM });
    try {
      assert.equal(sender.channel, 'email');
      assert.equal(sender.provider, 'smtp');
      const message = sampleMessage();
      const result = await sender.send(message);
      const mail = smtp.received.at(-1);
      assert.ok(mail, 'the server received a mail');
      assert.equal(mail.user, 'mailer');
      assert.deepEqual(smtp.logins.at(-1), { username: 'mailer', password: 's3cret pass' });
      assert.equal(mail.from, 'no-reply@telemed.example.in');
      assert.deepEqual(mail.to, [message.to]);
      assert.equal(header(mail.raw, 'Subject'), message.subject);
      assert.equal(header(mail.raw, 'To'), message.to);
      assert.equal(header(mail.raw, 'Auto-Submitted'), 'auto-generated');
      assert.match(header(mail.raw, 'Content-Type') ?? '', /^multipart\/alternative/);
      assert.ok(mail.raw.replace(/\r\n/g, '\n').includes(message.text), 'the text part is the text');
      assert.ok(quotedPrintable(mail.raw).includes('<a href="https://telemed.example.in/appointments/42">'), 'an HTML alternative with the link');
      assert.equal(result.provider_message_id, header(mail.raw, 'Message-ID'));
    } finally {
      await sender.close?.();
    }
  });

  it('gives a repeat of the same send the same Message-ID, and another send another', async () => {
    const sender = createSmtpSender({ url: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${smtp.port}`, from: FROM });
    try {
      const first = smtp.received.length;
      await sender.send(sampleMessage({ idempotency_key: 'appointment-7:appointment_approved:0:email' }));
      await sender.send(sampleMessage({ idempotency_key: 'appointment-7:appointment_approved:0:email' }));
      await sender.send(sampleMessage({ idempotency_key: 'appointment-8:appointment_approved:0:email' }));
      const ids = smtp.received.slice(first).map((mail) => header(mail.raw, 'Message-ID'));
      assert.equal(ids.length, 3);
      assert.equal(ids[0], ids[1]);
      assert.notEqual(ids[0], ids[2]);
      assert.equal(ids[0], messageIdFor('appointment-7:appointment_approved:0:email', FROM));
      assert.match(ids[0] ?? '', /^<[0-9a-f]{64}@telemed\.example\.in>$/);
    } finally {
      await sender.close?.();
    }
  });

  it('reports a 550 refusal as permanent and a 451 as worth retrying, without the address in the error', async () => {
    const sender = createSmtpSender({ url: `smtp://mailer:${encodeURIComponent('s3cret pass')}@127.0.0.1:${smtp.port}`, from: FROM });
    try {
      await assert.rejects(sender.send(sampleMessage({ to: 'nobody@example.in' })), (error: unknown) => {
        assert.ok(error instanceof ChannelSendError);
        assert.equal(error.permanent, true);
        assert.match(error.message, /550/);
        assert.doesNotMatch(error.message, /nobody|example\.in/);
        return true;
      });
      await assert.rejects(sender.send(sampleMessage({ to: 'busy@example.in' })), (error: unknown) => {
        assert.ok(error instanceof ChannelSendError);
        assert.equal(error.permanent, false);
        assert.match(error.message, /451/);
        return true;
      });
    } finally {
      await sender.close?.();
    }
  });

  it('reports refused credentials (535) as permanent', async () => {
    const sender = createSmtpSender({ url: `smtp://mailer:wrong@127.0.0.1:${smtp.port}`, from: FROM });
    try {
      await assert.rejects(sender.send(sampleMessage()), (error: unknown) => error instanceof ChannelSendError && error.permanent && /535/.test(error.message));
    } finally {
      await sender.close?.();
    }
  });

  it('reports a server that is down as worth retrying', async () => {
    const port = await closedPort();
    const sender = createSmtpSender({ url: `smtp://mailer:x@127.0.0.1:${port}`, from: FROM });
    try {
      await assert.rejects(sender.send(sampleMessage()), (error: unknown) => {
        assert.ok(error instanceof ChannelSendError);
        assert.equal(error.permanent, false);
        assert.doesNotMatch(error.message, /meera/);
        return true;
      });
    } finally {
      await sender.close?.();
    }
  });
});

describe('htmlOf', () => {
  it('escapes the text and keeps its lines', () => {
    assert.equal(htmlOf('a <b> & "c"\nhttps://x.in/a?b=1&c=2'), '<!doctype html><html><body><p>a &lt;b&gt; &amp; &quot;c&quot;<br>\n<a href="https://x.in/a?b=1&amp;c=2">https://x.in/a?b=1&amp;c=2</a></p></body></html>');
  });
});
