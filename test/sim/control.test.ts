// Issue 24, smaller attack surface: where the simulator serves its control routes (tests, `npm run sim`), they answer
// only a request that names the loopback address the server listens on in its Host, which a web page DNS-rebound to
// 127.0.0.1 cannot (its browser sends the page's own name), and they read at most 1 MiB of body (413 beyond). Requests
// go over real sockets with node:http, since fetch will not send a Host of the caller's choosing.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim';
import { MAX_CONTROL_BODY_BYTES } from '../../src/sim/server';
import { PATHS } from '../../src/shared/api';
import { get } from '../../src/sim/testing';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 5,
    clock: 'manual',
    events: 8,
    keys: [{ key: 'control-test-ent', plan: 'enterprise' }],
  });
});
afterAll(() => sim.close());

interface Answer {
  status: number;
  json: unknown;
}

/**
 * One request over its own socket. `body` goes out with a Content-Length, or, with `chunked`, in 64 KiB chunks and no
 * length, so the server only learns its size as it reads.
 */
function send(
  method: string,
  path: string,
  o: { host?: string; body?: string; chunked?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: o.host ?? `127.0.0.1:${sim.port}`, Connection: 'close' };
    if (o.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      if (!o.chunked) headers['Content-Length'] = String(Buffer.byteLength(o.body));
    }
    const req = request({ host: '127.0.0.1', port: sim.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? (JSON.parse(text) as unknown) : null }));
    });
    req.on('error', reject);
    if (o.body !== undefined && o.chunked) {
      for (let i = 0; i < o.body.length; i += 64 * 1024) req.write(o.body.slice(i, i + 64 * 1024));
    } else if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

/** A JSON body for POST /__sim/keys of exactly `bytes` bytes. */
function keyBody(bytes: number, key: string): string {
  const head = `{"plan":"starter","key":"${key}","pad":"`;
  return head + 'p'.repeat(bytes - head.length - 2) + '"}';
}

describe('control routes: who may call them', () => {
  it('answer a Host naming the loopback address and port the server listens on', async () => {
    for (const host of [`127.0.0.1:${sim.port}`, `localhost:${sim.port}`, `LOCALHOST:${sim.port}`]) {
      const r = await send('GET', '/__sim/truth/settled', { host });
      expect(r.status, host).toBe(200);
      expect(Array.isArray(r.json)).toBe(true);
    }
  });

  it('refuse any other Host with 421 and do nothing, so a DNS-rebound page cannot issue keys or switch faults on', async () => {
    const foreign = [
      'attacker.example',
      `attacker.example:${sim.port}`,
      `127.0.0.1:${sim.port + 1}`,
      '127.0.0.1',
      `[::1]:${sim.port}`,
    ];
    for (const host of foreign) {
      const issued = await send('POST', '/__sim/keys', {
        host,
        body: JSON.stringify({ plan: 'enterprise', key: 'planted-by-a-page' }),
      });
      expect(issued.status, `Host ${host}`).toBe(421);
      expect(issued.json).toEqual({
        detail: `control routes answer only to Host 127.0.0.1:${sim.port} or localhost:${sim.port}`,
      });
      expect((await send('POST', '/__sim/faults', { host, body: JSON.stringify({ serverErrorRate: 1 }) })).status).toBe(
        421,
      );
      expect((await send('GET', '/__sim/requests', { host })).status).toBe(421);
    }
    // Nothing took effect: the planted key is unknown and no fault answers 5xx.
    expect((await get(sim.url, PATHS.sports, 'planted-by-a-page')).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await get(sim.url, PATHS.sports, 'control-test-ent')).status).toBe(200);
  });

  it('refuse a request line that names a host of its own, whatever the Host header says', async () => {
    const r = await send('POST', `http://attacker.example:${sim.port}/__sim/keys`, {
      body: JSON.stringify({ plan: 'starter' }),
    });
    expect(r.status).toBe(421);
  });
});

describe('control routes: body size', () => {
  it('read a body of up to 1 MiB', async () => {
    const r = await send('POST', '/__sim/keys', { body: keyBody(MAX_CONTROL_BODY_BYTES, 'exactly-one-mib') });
    expect(r).toEqual({ status: 200, json: { key: 'exactly-one-mib' } });
    expect((await get(sim.url, PATHS.sports, 'exactly-one-mib')).status).toBe(200);
  });

  it('refuse a larger one with 413, with or without a Content-Length, keep nothing of it and go on answering', async () => {
    for (const chunked of [false, true]) {
      const key = `one-byte-too-many-${chunked ? 'chunked' : 'declared'}`;
      const r = await send('POST', '/__sim/keys', { body: keyBody(MAX_CONTROL_BODY_BYTES + 1, key), chunked });
      expect(r.status, chunked ? 'chunked' : 'with Content-Length').toBe(413);
      expect(r.json).toEqual({ detail: `the body is larger than ${MAX_CONTROL_BODY_BYTES} bytes` });
      expect((await get(sim.url, PATHS.sports, key)).status).toBe(401);
    }
    // Several MiB more: refused the same way.
    expect(
      (await send('POST', '/__sim/faults', { body: keyBody(5 * MAX_CONTROL_BODY_BYTES, 'big'), chunked: true })).status,
    ).toBe(413);
    expect((await send('POST', '/__sim/advance', { body: JSON.stringify({ seconds: 10 }) })).status).toBe(200);
  });
});
