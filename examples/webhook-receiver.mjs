// A webhook receiver for Portcullis (README "Integrating"): verifies each request with the Standard
// Webhooks secret in PORTCULLIS_WEBHOOK_SECRET, prints the event (type, webhook-id, ids, status) and
// answers 204; a bad signature, an old timestamp or missing headers get 401 and are never printed as events.
//   PORTCULLIS_WEBHOOK_SECRET=whsec_… node examples/webhook-receiver.mjs [PORT]   (default 9000, on 127.0.0.1)
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const secret = process.env.PORTCULLIS_WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  console.error('set PORTCULLIS_WEBHOOK_SECRET to the whsec_… secret `portcullis webhook create` printed');
  process.exit(2);
}
const hook = new Webhook(secret);
const port = Number(process.argv[2] ?? 9000);

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body as received: JSON parsed and serialized again would not match the signature.
      const { type, data } = hook.verify(Buffer.concat(chunks).toString('utf8'), request.headers);
      const fields = Object.entries(data).filter(([name]) => name !== 'url').map(([name, value]) => `${name}=${value}`);
      console.log(`verified ${type} ${request.headers['webhook-id']} ${fields.join(' ')}`);
      response.writeHead(204).end();
    } catch (error) {
      console.log(`refused (401): ${error.message}`);
      response.writeHead(401).end();
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`receiver listening on http://127.0.0.1:${port}/hooks`));
