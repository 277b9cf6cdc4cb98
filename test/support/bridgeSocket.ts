// A Node client's way into the browser bridge, as the page does it: a WebSocket from the page's own origin that
// answers the host's challenge with its proof of the token and checks the host's proof in return. Resolves with
// the socket once the host has welcomed it; what arrives afterwards is results and pushes.
import WebSocket from 'ws';
import { bridgeProof, newBridgeNonce, verifyBridgeProof } from '../../src/shared/ipc/bridgeSession';

/** `where` is the bridge's port on 127.0.0.1, or the URL the host printed (its token is then read from it). */
export async function openBridgeSocket(where: number | string, token?: string): Promise<WebSocket> {
  const url = typeof where === 'number' ? new URL(`http://127.0.0.1:${where}/`) : new URL(where);
  const key = token ?? new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  const ws = new WebSocket(`ws://${url.host}/bridge`, { origin: `http://${url.host}` });
  ws.on('error', () => undefined);
  const next = () =>
    new Promise<{ type?: string; nonce?: string; proof?: string }>((resolve, reject) => {
      const onClose = (code: number) =>
        reject(new Error(`the bridge closed the socket (${code}) during the handshake`));
      ws.once('close', onClose);
      ws.once('message', (d) => {
        ws.off('close', onClose);
        resolve(JSON.parse(d.toString()) as { type?: string });
      });
    });
  const challenge = await next();
  if (challenge.type !== 'challenge' || !challenge.nonce)
    throw new Error(`expected the host's challenge, got ${JSON.stringify(challenge)}`);
  const nonce = newBridgeNonce();
  ws.send(JSON.stringify({ type: 'hello', nonce, proof: await bridgeProof(key, 'page', challenge.nonce, nonce) }));
  const welcome = await next();
  if (
    welcome.type !== 'welcome' ||
    !(await verifyBridgeProof(key, 'host', challenge.nonce, nonce, welcome.proof ?? ''))
  ) {
    ws.close();
    throw new Error('the bridge did not prove it holds the token');
  }
  return ws;
}
