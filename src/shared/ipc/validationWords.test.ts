// The contract's refusals as the trader reads them (issue 25, item 4): through `dispatch`, a request the schema
// refuses is answered in plain words about the field, with the range read from the schema, and never with the
// schema's own text or the channel's name.
import { describe, expect, it } from 'vitest';
import { dispatch, dispatchDesktop, type CoreHandlers, type DesktopHandlers } from './contract';

// Validation answers before any handler runs: a request that reaches one is a failure of the test.
const unreachable = new Proxy(
  {},
  { get: () => () => expect.fail('a refused request reached its handler') },
) as CoreHandlers;

async function refusal(channel: string, ...args: unknown[]): Promise<string> {
  const r = await dispatch(unreachable, channel, args);
  expect(r.ok).toBe(false);
  if (r.ok) return '';
  expect(r.error.kind).toBe('validation');
  // Nothing of the schema's own text, nor the internal channel name.
  expect(r.error.message).not.toMatch(
    /Bad arguments|Too big|Too small|Invalid input|expected|settings:update|bets:add|priceAlerts:set|<=|>=/,
  );
  return r.error.message;
}

describe('the contract refuses in plain words', () => {
  it('a setting out of its range names the setting and the whole range', async () => {
    expect(await refusal('settings:update', { dropAlertPct: 150 })).toBe('Drop alert must be a number from 0 to 100');
    expect(await refusal('settings:update', { dropAlertPct: -1 })).toBe('Drop alert must be a number from 0 to 100');
    expect(await refusal('settings:update', { dropWindowMinutes: 0 })).toBe(
      'Drop window (minutes) must be a whole number from 1 to 240',
    );
    expect(await refusal('settings:update', { dropWindowMinutes: 2.5 })).toBe(
      'Drop window (minutes) must be a whole number from 1 to 240',
    );
    expect(await refusal('settings:update', { retentionDays: 5000 })).toBe(
      'Tick history (days) must be a whole number from 1 to 3,650',
    );
    expect(await refusal('settings:update', { maxWinThresholdPct: 'ten' })).toBe(
      'Max stake alert threshold must be a number from 0 to 1,000',
    );
  });

  it('a choice lists what it may be; a switch says on or off; an unknown setting is named', async () => {
    expect(await refusal('settings:update', { theme: 'blue' })).toBe('Theme must be one of dark or light');
    expect(await refusal('settings:update', { oddsFormat: 'roman' })).toBe(
      'Odds format must be one of decimal, american, fractional, hongkong, malay, indonesian or implied',
    );
    expect(await refusal('settings:update', { doNotDisturb: 'yes' })).toBe(
      'Do not disturb must be on or off (true or false)',
    );
    expect(await refusal('settings:update', { colour: 'red' })).toBe('There is no setting called "colour"');
  });

  it("the schema's own phrase becomes a sentence about the field; a sentence stays as it is", async () => {
    expect(await refusal('settings:update', { timeZone: 'Mars/Olympus' })).toBe(
      'Time zone must be a time zone name such as Europe/London or UTC',
    );
    expect(await refusal('settings:update', { moneyUnit: '<b>' })).toBe(
      'Money unit must be made of printable characters (no < or >)',
    );
    expect(await refusal('settings:update', { moneyUnit: 'EURO-DOLLAR' })).toBe(
      'Money unit must be at most 8 characters',
    );
    expect(await refusal('settings:setApiKey', 'short')).toBe('The API key is too short (at least 8 characters).');
  });

  it('a bet and a price threshold: an exclusive bound reads as "above"', async () => {
    const bet = { eventId: 1, lineId: 2, side: 'home', price: 2, stake: 10 };
    expect(await refusal('bets:add', { ...bet, price: 1 })).toBe('Price must be a number above 1, at most 1,000');
    expect(await refusal('bets:add', { ...bet, stake: 0 })).toBe(
      'Stake must be a number above 0, at most 1,000,000,000',
    );
    expect(await refusal('bets:add', { ...bet, side: 'middle' })).toBe(
      'Side must be one of home, draw, away, over or under',
    );
    expect(await refusal('priceAlerts:set', 1, { thresholds: [{ lineId: 2, side: 'home', price: 0.5 }] })).toBe(
      'Threshold price must be a number above 1, at most 1,000',
    );
    expect(await refusal('priceAlerts:set', 1, { dropPct: 101, thresholds: [] })).toBe(
      'Drop alert must be a number from 0 to 100',
    );
  });

  it('a positional argument is named by what it is', async () => {
    expect(await refusal('watch:add', -3)).toBe('Event id must be a whole number of 0 or more');
    expect(await refusal('watch:add', 'abc')).toBe('Event id must be a whole number of 0 or more');
    expect(await refusal('watch:add')).toBe('This request takes one value (Event id)');
    expect(await refusal('alerts:snooze', 5, -1)).toBe('Snooze end must be a whole number above 0');
  });

  it("the desktop shell's channels answer the same way", async () => {
    const r = await dispatchDesktop({} as DesktopHandlers, 'desktop:update', [{ closeToTray: 'sometimes' }]);
    expect(r).toEqual({
      ok: false,
      error: { kind: 'validation', message: 'Closing to the tray must be on or off (true or false)' },
    });
  });
});
