// The paged read of a large page (issue 36): the same records JSON.parse would give, at most the cap of them, the
// total counted, and the envelope as sent.
import { describe, expect, it } from 'vitest';
import { parsePagedJson } from './jsonPages';

describe('parsePagedJson', () => {
  it('reads what JSON.parse reads, up to the cap, and counts the rest', async () => {
    const page = {
      last: 5,
      note: 'a "quoted" ] , { string',
      events: [{ a: [1, 2, { b: ']' }] }, 'x,y', null, 3, [[]]],
      tail: { events: [9] },
    };
    const text = JSON.stringify(page, null, 1);
    expect(await parsePagedJson(text, 'events', 100)).toEqual({ body: page, total: 5 });
    expect(await parsePagedJson(text, 'events', 2)).toEqual({
      body: { ...page, events: page.events.slice(0, 2) },
      total: 5,
    });
    expect(await parsePagedJson('{"events":[ ]}', 'events', 2)).toEqual({ body: { events: [] }, total: 0 });
    expect(await parsePagedJson('[1,2]', 'events', 2)).toEqual({ body: [1, 2], total: null });
    await expect(parsePagedJson('{"events":[1,,2]}', 'events', 5)).rejects.toThrow(SyntaxError);
  });

  it('reads a million-record page in slices, parsing only the first records', async () => {
    const text = `{"last":1,"events":[${'0,'.repeat(999_999)}0]}`;
    const r = await parsePagedJson(text, 'events', 1000);
    expect(r.total).toBe(1_000_000);
    expect((r.body as { events: unknown[] }).events).toHaveLength(1000);
  });
});
