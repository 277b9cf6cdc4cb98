// Browser mode's port: without --port each start takes a free port the system picks (nothing can wait on a known
// port for the host to go, and two hosts never collide); --port P still binds exactly P.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, startWebHost, type WebHost } from './e2e/helpers';

const hosts: WebHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

async function start(...args: string[]): Promise<{ url: URL; host: WebHost }> {
  const host = await startWebHost(cli('web', ...args), { ODDSDESK_API_KEY: '' });
  hosts.push(host);
  return { url: new URL(host.url), host };
}

function status(url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(
        { host: url.hostname, port: url.port, path: '/', agent: false, headers: { 'sec-fetch-site': 'none' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      )
      .on('error', reject);
  });
}

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

describe('browser mode port', () => {
  it('without --port, each start binds a port of its own choosing and prints the address to open', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    for (const { url, host } of [a, b]) {
      expect(host.output()).toMatch(new RegExp(`^Open http://127\\.0\\.0\\.1:${url.port}/#token=[0-9a-f]+$`, 'm'));
      expect(await status(url)).toBe(200);
    }
    // The old fixed default is gone; the two hosts did not have to agree on anything.
    expect(a.url.port).not.toBe('5185');
    expect(a.url.port).not.toBe(b.url.port);
  });

  it('--port P binds exactly P', async () => {
    const p = await freePort();
    const { url } = await start('--port', String(p));
    expect(url.port).toBe(String(p));
    expect(await status(url)).toBe(200);
  });
});
