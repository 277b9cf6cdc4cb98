// The key that works a button, beside its label. A bare digit beside "All" or "Open" read as a count ("All 1 /
// Open 2"); it says "key 1", so it cannot be taken for one.
export function KeyHint({ k }: { k: string }) {
  return (
    <kbd className="key" title={`Press ${k}`} data-key={k}>
      key {k}
    </kbd>
  );
}
