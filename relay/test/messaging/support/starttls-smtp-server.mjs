// A real SMTP server in its own process for TLS tests: the smtp-server package offering STARTTLS
// (or not) with the certificate it is given. Prints `listening <port>` on stdout, then one JSON line
// per message received: {from, to, secure, raw}. Plain JavaScript so the test spawns bare `node`.
// argv: <key.pem> <cert.pem> <offer-starttls: yes|no>
import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';

const [keyFile, certFile, offerStarttls] = process.argv.slice(2);
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: offerStarttls === 'yes' ? ['AUTH'] : ['AUTH', 'STARTTLS'],
  key: fs.readFileSync(keyFile),
  cert: fs.readFileSync(certFile),
  logger: false,
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      const line = {
        from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((r) => r.address),
        secure: session.secure,
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
      callback();
    });
  },
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
