// A sport filter: "All sports" or one of sports:list.
import { useSports } from '../hooks';

export function SportSelect({
  value,
  onChange,
  testId,
}: {
  value: number | null;
  onChange: (sportId: number | null) => void;
  testId?: string;
}) {
  const sports = useSports();
  return (
    <select
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
      aria-label="Sport"
      data-testid={testId}
    >
      <option value="">All sports</option>
      {sports.map((s) => (
        <option key={s.sport_id} value={s.sport_id}>
          {s.name}
        </option>
      ))}
    </select>
  );
}
