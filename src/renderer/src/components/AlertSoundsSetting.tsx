// Settings: the window's sound per kind of alert (settlements on by default, max stake and price/drop off), each with
// a button to hear it. The sound is the window's, from the live alert stream: none under do-not-disturb, none for a
// muted or snoozed event; OS notifications stay silent so an alert is never heard twice.
import type { SettingsPatch } from '../../../shared/ipc/contract';
import { playAlertSound } from '../notify';
import { useStore } from '../store';
import type { AlertSound } from '../store/alerts';

const KINDS: ReadonlyArray<{
  sound: AlertSound;
  key: 'settlementSound' | 'maxWinSound' | 'priceSound';
  words: string;
}> = [
  { sound: 'settlement', key: 'settlementSound', words: 'settlements' },
  { sound: 'max_win', key: 'maxWinSound', words: 'max stake changes' },
  { sound: 'price', key: 'priceSound', words: 'price and drop alerts' },
];

export function AlertSoundsSetting() {
  const settings = useStore((s) => s.settings);
  const update = useStore((s) => s.updateSettings);
  const toast = useStore((s) => s.toast);
  const save = (patch: SettingsPatch) =>
    void update(patch).then((err) => err && toast(`Sound not saved: ${err.message}`, 'error'));
  return (
    <div className="set-row" data-testid="alert-sounds">
      <div className="set-label">
        Sounds
        <div className="muted small-text">
          Played by this window as alerts arrive, one tune per kind; silent under do-not-disturb and for muted or
          snoozed events.
        </div>
      </div>
      <div className="set-control">
        {KINDS.map((k) => (
          <span key={k.key} className="sound-choice">
            <label className="check">
              <input
                type="checkbox"
                checked={settings?.[k.key] ?? false}
                disabled={!settings}
                data-testid={`sound-${k.sound}`}
                onChange={(e) => save({ [k.key]: e.target.checked })}
              />{' '}
              {k.words}
            </label>
            <button
              className="small"
              onClick={() => playAlertSound(k.sound)}
              aria-label={`Play the ${k.words} sound`}
              title="Play it"
            >
              ▶
            </button>
          </span>
        ))}
      </div>
    </div>
  );
}
